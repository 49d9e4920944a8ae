import { SignedXml } from 'xml-crypto';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { allocate, Dec, round, sum } from '../../src/core/decimal';
import { accessKeyCheckDigit, buildAccessKey } from '../../src/modules/nfe/xml/access-key';
import { testCertificate } from './test-certificate';

/*
 * Builds valid layout-4.00 nfeProc documents for tests: any number of items, ICMS (normal, ST, Simples
 * Nacional), IPI, PIS/COFINS, charges and installments, totals computed with Dec by the layout's
 * rules, the access key computed from the fields, an RSA-SHA1 enveloped XMLDSig over infNFe (C14N,
 * as the layout requires) made by xml-crypto with a certificate created at test time, and the
 * authorization protocol. Tests tamper with the returned text.
 */

export type IcmsSpec =
  | { cst: '00'; rate: string }
  | { cst: '10'; rate: string; stMva: string; stRate: string; fcpStRate?: string }
  /** relief: vICMSDeson (motDesICMS 9), deducted from the total (indDeduzDeson 1). */
  | { cst: '40' | '41'; relief?: string }
  | { csosn: '102' | '400' }
  | { csosn: '202'; stMva: string; stRate: string };

export interface NfeItemSpec {
  code?: string;
  gtin?: string;
  description?: string;
  ncm?: string;
  cest?: string;
  cfop?: string;
  unit?: string;
  quantity: string;
  unitPrice: string;
  /** vProd as the issuer wrote it (default: quantity × unitPrice rounded); the authority accepts ±0.01. */
  lineTotal?: string;
  discount?: string;
  freight?: string;
  insurance?: string;
  otherExpenses?: string;
  icms?: IcmsSpec;
  ipiRate?: string;
  pisRate?: string;
  cofinsRate?: string;
}

export interface NfeSpec {
  issuer?: { cnpj?: string; name?: string; tradeName?: string; uf?: string; stateRegistration?: string; crt?: '1' | '3' };
  recipient: { cnpj?: string; cpf?: string; name?: string; uf?: string };
  /** tpAmb: 1 production (default), 2 homologation. */
  environment?: '1' | '2';
  model?: '55' | '65';
  series?: string;
  number?: number;
  randomCode?: string;
  /** dhEmi, default 2025-03-10T10:00:00-03:00. */
  issuedAt?: string;
  operationNature?: string;
  items: NfeItemSpec[];
  /** Installments: due dates (amounts split from vNF) or explicit amounts; omitted → no cobr. */
  installments?: { dueDate: string; amount?: string }[];
  /** protNFe: cStat (default 100); null → no protocol (a bare NFe). */
  protocol?: { cStat?: string; xMotivo?: string } | null;
  /** Signing certificate subject; default a test company. */
  signer?: { cnpj?: string; name?: string };
  /** Leave the document unsigned. */
  unsigned?: boolean;
  /** Replace the key's check digit (and cDV) with another digit: a key that fails mod 11. */
  wrongCheckDigit?: boolean;
  additionalInfo?: string;
  /** finNFe (default 1). */
  purpose?: '1' | '2' | '3' | '4' | '5' | '6';
  /** NFref/refNFe: access keys of referenced documents. */
  referencedKeys?: string[];
}

export interface BuiltNfe {
  xml: string;
  accessKey: string;
  /** The computed ICMSTot values (2 decimals). */
  totals: Record<string, string>;
  digestValue: string | null;
  installments: { number: string; dueDate: string; amount: string }[];
}

const NS = 'http://www.portalfiscal.inf.br/nfe';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const el = (tag: string, value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '' : `<${tag}>${esc(String(value))}</${tag}>`);
const a2 = (d: Dec) => d.toFixed(2);

let numberSeq = 1000;
export const DEFAULT_ISSUER_CNPJ = cnpjWithCheckDigits('123456780001');

interface ComputedItem {
  spec: NfeItemSpec;
  total: Dec;
  discount: Dec;
  freight: Dec;
  insurance: Dec;
  other: Dec;
  icmsBase: Dec;
  icms: Dec;
  stBase: Dec;
  st: Dec;
  fcpSt: Dec;
  relief: Dec;
  ipi: Dec;
  pis: Dec;
  cofins: Dec;
}

function computeItem(spec: NfeItemSpec): ComputedItem {
  const total = spec.lineTotal ? new Dec(spec.lineTotal) : round(new Dec(spec.quantity).times(spec.unitPrice), 2);
  const discount = new Dec(spec.discount ?? 0);
  const freight = new Dec(spec.freight ?? 0);
  const insurance = new Dec(spec.insurance ?? 0);
  const other = new Dec(spec.otherExpenses ?? 0);
  const icmsSpec = spec.icms ?? { cst: '00', rate: '18' };
  const base = total.minus(discount).plus(freight).plus(insurance).plus(other);
  const ipi = spec.ipiRate ? round(total.times(spec.ipiRate).div(100), 2) : new Dec(0);
  let icmsBase = new Dec(0);
  let icms = new Dec(0);
  let stBase = new Dec(0);
  let st = new Dec(0);
  if ('cst' in icmsSpec && (icmsSpec.cst === '00' || icmsSpec.cst === '10')) {
    icmsBase = base;
    icms = round(base.times(icmsSpec.rate).div(100), 2);
  }
  let fcpSt = new Dec(0);
  if ('stMva' in icmsSpec) {
    stBase = round(base.plus(ipi).times(new Dec(100).plus(icmsSpec.stMva)).div(100), 2);
    const full = round(stBase.times(icmsSpec.stRate).div(100), 2);
    st = Dec.max(full.minus(icms), 0);
    if ('fcpStRate' in icmsSpec && icmsSpec.fcpStRate) fcpSt = round(stBase.times(icmsSpec.fcpStRate).div(100), 2);
  }
  const relief = 'relief' in icmsSpec && icmsSpec.relief ? new Dec(icmsSpec.relief) : new Dec(0);
  const pis = spec.pisRate ? round(base.times(spec.pisRate).div(100), 2) : new Dec(0);
  const cofins = spec.cofinsRate ? round(base.times(spec.cofinsRate).div(100), 2) : new Dec(0);
  return { spec, total, discount, freight, insurance, other, icmsBase, icms, stBase, st, fcpSt, relief, ipi, pis, cofins };
}

function icmsXml(c: ComputedItem): string {
  const s = c.spec.icms ?? { cst: '00', rate: '18' };
  if ('csosn' in s) {
    if (s.csosn === '202') {
      return `<ICMS><ICMSSN202><orig>0</orig><CSOSN>202</CSOSN><modBCST>4</modBCST><pMVAST>${s.stMva}</pMVAST><vBCST>${a2(c.stBase)}</vBCST><pICMSST>${s.stRate}</pICMSST><vICMSST>${a2(c.st)}</vICMSST></ICMSSN202></ICMS>`;
    }
    return `<ICMS><ICMSSN102><orig>0</orig><CSOSN>${s.csosn}</CSOSN></ICMSSN102></ICMS>`;
  }
  if (!('rate' in s)) {
    const relief = c.relief.gt(0) ? `<vICMSDeson>${a2(c.relief)}</vICMSDeson><motDesICMS>9</motDesICMS><indDeduzDeson>1</indDeduzDeson>` : '';
    return `<ICMS><ICMS40><orig>0</orig><CST>${s.cst}</CST>${relief}</ICMS40></ICMS>`;
  }
  const normal = `<orig>0</orig><CST>${s.cst}</CST><modBC>3</modBC><vBC>${a2(c.icmsBase)}</vBC><pICMS>${s.rate}</pICMS><vICMS>${a2(c.icms)}</vICMS>`;
  if (s.cst === '10') {
    const fcp = c.fcpSt.gt(0) ? `<vBCFCPST>${a2(c.stBase)}</vBCFCPST><pFCPST>${s.fcpStRate}</pFCPST><vFCPST>${a2(c.fcpSt)}</vFCPST>` : '';
    return `<ICMS><ICMS10>${normal}<modBCST>4</modBCST><pMVAST>${s.stMva}</pMVAST><vBCST>${a2(c.stBase)}</vBCST><pICMSST>${s.stRate}</pICMSST><vICMSST>${a2(c.st)}</vICMSST>${fcp}</ICMS10></ICMS>`;
  }
  return `<ICMS><ICMS00>${normal}</ICMS00></ICMS>`;
}

function detXml(c: ComputedItem, n: number): string {
  const s = c.spec;
  const gtin = s.gtin ?? 'SEM GTIN';
  const prod =
    `<prod>${el('cProd', s.code ?? `P${n}`)}${el('cEAN', gtin)}${el('xProd', s.description ?? `PRODUTO TESTE ${n}`)}${el('NCM', s.ncm ?? '21069090')}${el('CEST', s.cest)}` +
    `${el('CFOP', s.cfop ?? '5102')}${el('uCom', s.unit ?? 'UN')}${el('qCom', new Dec(s.quantity).toFixed(4))}${el('vUnCom', new Dec(s.unitPrice).toFixed(10))}${el('vProd', a2(c.total))}` +
    `${el('cEANTrib', gtin)}${el('uTrib', s.unit ?? 'UN')}${el('qTrib', new Dec(s.quantity).toFixed(4))}${el('vUnTrib', new Dec(s.unitPrice).toFixed(10))}` +
    `${c.freight.gt(0) ? el('vFrete', a2(c.freight)) : ''}${c.insurance.gt(0) ? el('vSeg', a2(c.insurance)) : ''}${c.discount.gt(0) ? el('vDesc', a2(c.discount)) : ''}${c.other.gt(0) ? el('vOutro', a2(c.other)) : ''}<indTot>1</indTot></prod>`;
  const ipi = s.ipiRate
    ? `<IPI><cEnq>999</cEnq><IPITrib><CST>50</CST><vBC>${a2(c.total)}</vBC><pIPI>${s.ipiRate}</pIPI><vIPI>${a2(c.ipi)}</vIPI></IPITrib></IPI>`
    : '';
  const pis = s.pisRate
    ? `<PIS><PISAliq><CST>01</CST><vBC>${a2(c.total.minus(c.discount).plus(c.freight).plus(c.insurance).plus(c.other))}</vBC><pPIS>${s.pisRate}</pPIS><vPIS>${a2(c.pis)}</vPIS></PISAliq></PIS>`
    : '<PIS><PISNT><CST>07</CST></PISNT></PIS>';
  const cofins = s.cofinsRate
    ? `<COFINS><COFINSAliq><CST>01</CST><vBC>${a2(c.total.minus(c.discount).plus(c.freight).plus(c.insurance).plus(c.other))}</vBC><pCOFINS>${s.cofinsRate}</pCOFINS><vCOFINS>${a2(c.cofins)}</vCOFINS></COFINSAliq></COFINS>`
    : '<COFINS><COFINSNT><CST>07</CST></COFINSNT></COFINS>';
  return `<det nItem="${n}">${prod}<imposto>${icmsXml(c)}${ipi}${pis}${cofins}</imposto></det>`;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export function signNfeXml(nfeXml: string, signer: { cnpj?: string; name?: string } = {}): string {
  const cert = testCertificate(signer.cnpj, signer.name);
  const sig = new SignedXml({
    privateKey: cert.privateKeyPem,
    publicCert: cert.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='infNFe']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315'],
    digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
  });
  sig.computeSignature(nfeXml, { location: { reference: "//*[local-name(.)='infNFe']", action: 'after' } });
  return sig.getSignedXml();
}

export function buildNfe(spec: NfeSpec): BuiltNfe {
  const issuer = { cnpj: DEFAULT_ISSUER_CNPJ, name: 'FORNECEDOR TESTE LTDA', tradeName: 'FORNECEDOR TESTE', uf: 'SP', stateRegistration: '111222333444', crt: '3' as const, ...spec.issuer };
  const issuedAt = spec.issuedAt ?? '2025-03-10T10:00:00-03:00';
  const number = spec.number ?? numberSeq++;
  const series = spec.series ?? '1';
  const model = spec.model ?? '55';
  const environment = spec.environment ?? '1';
  const randomCode = spec.randomCode ?? String(10000000 + ((number * 7919) % 89999999)).slice(0, 8);
  let accessKey = buildAccessKey({ ufCode: '35', issuedAt, issuerDocument: issuer.cnpj, model, series, number: String(number), emissionType: '1', randomCode });
  if (spec.wrongCheckDigit) accessKey = `${accessKey.slice(0, 43)}${(accessKeyCheckDigit(accessKey.slice(0, 43)) + 1) % 10}`;

  const items = spec.items.map(computeItem);
  const t = {
    vBC: sum(items.map((i) => i.icmsBase)),
    vICMS: sum(items.map((i) => i.icms)),
    vBCST: sum(items.map((i) => i.stBase)),
    vST: sum(items.map((i) => i.st)),
    vFCPST: sum(items.map((i) => i.fcpSt)),
    vICMSDeson: sum(items.map((i) => i.relief)),
    vProd: sum(items.map((i) => i.total)),
    vFrete: sum(items.map((i) => i.freight)),
    vSeg: sum(items.map((i) => i.insurance)),
    vDesc: sum(items.map((i) => i.discount)),
    vIPI: sum(items.map((i) => i.ipi)),
    vPIS: sum(items.map((i) => i.pis)),
    vCOFINS: sum(items.map((i) => i.cofins)),
    vOutro: sum(items.map((i) => i.other)),
  };
  const vNF = t.vProd.minus(t.vDesc).minus(t.vICMSDeson).plus(t.vST).plus(t.vFCPST).plus(t.vFrete).plus(t.vSeg).plus(t.vOutro).plus(t.vIPI);
  const totals: Record<string, string> = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, a2(v)]));
  totals.vNF = a2(vNF);

  const installments = (spec.installments ?? []).length
    ? (() => {
        const given = spec.installments!;
        const split = allocate(vNF, given.map(() => 1), 2);
        return given.map((d, i) => ({ number: String(i + 1).padStart(3, '0'), dueDate: d.dueDate, amount: d.amount ?? a2(split[i]) }));
      })()
    : [];
  const cobr = installments.length
    ? `<cobr><fat><nFat>${number}</nFat><vOrig>${a2(vNF)}</vOrig><vDesc>0.00</vDesc><vLiq>${a2(vNF)}</vLiq></fat>${installments
        .map((d) => `<dup><nDup>${d.number}</nDup><dVenc>${d.dueDate}</dVenc><vDup>${d.amount}</vDup></dup>`)
        .join('')}</cobr>`
    : '';
  const recipientDoc = spec.recipient.cnpj ? el('CNPJ', spec.recipient.cnpj) : el('CPF', spec.recipient.cpf);

  const infNFe =
    `<infNFe versao="4.00" Id="NFe${accessKey}">` +
    `<ide><cUF>35</cUF><cNF>${randomCode}</cNF>${el('natOp', spec.operationNature ?? 'VENDA DE MERCADORIA')}<mod>${model}</mod><serie>${series}</serie><nNF>${number}</nNF>` +
    `<dhEmi>${issuedAt}</dhEmi><tpNF>1</tpNF><idDest>1</idDest><cMunFG>3550308</cMunFG><tpImp>1</tpImp><tpEmis>1</tpEmis><cDV>${accessKey[43]}</cDV>` +
    `<tpAmb>${environment}</tpAmb><finNFe>${spec.purpose ?? '1'}</finNFe><indFinal>0</indFinal><indPres>9</indPres><procEmi>0</procEmi><verProc>nfe-builder 1.0</verProc>` +
    `${(spec.referencedKeys ?? []).map((k) => `<NFref><refNFe>${k}</refNFe></NFref>`).join('')}</ide>` +
    `<emit><CNPJ>${issuer.cnpj}</CNPJ>${el('xNome', issuer.name)}${el('xFant', issuer.tradeName)}<enderEmit><xLgr>RUA TESTE</xLgr><nro>100</nro><xBairro>CENTRO</xBairro>` +
    `<cMun>3550308</cMun><xMun>SAO PAULO</xMun><UF>${issuer.uf}</UF><CEP>01001000</CEP><cPais>1058</cPais><xPais>BRASIL</xPais></enderEmit>` +
    `<IE>${issuer.stateRegistration}</IE><CRT>${issuer.crt}</CRT></emit>` +
    `<dest>${recipientDoc}${el('xNome', environment === '2' ? 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL' : spec.recipient.name ?? 'LOJA DESTINATARIA LTDA')}` +
    `<enderDest><xLgr>AV TESTE</xLgr><nro>1</nro><xBairro>CENTRO</xBairro><cMun>3550308</cMun><xMun>SAO PAULO</xMun><UF>${spec.recipient.uf ?? 'SP'}</UF><CEP>01001000</CEP></enderDest><indIEDest>9</indIEDest></dest>` +
    items.map((c, i) => detXml(c, i + 1)).join('') +
    `<total><ICMSTot><vBC>${totals.vBC}</vBC><vICMS>${totals.vICMS}</vICMS><vICMSDeson>${totals.vICMSDeson}</vICMSDeson><vFCP>0.00</vFCP><vBCST>${totals.vBCST}</vBCST><vST>${totals.vST}</vST>` +
    `<vFCPST>${totals.vFCPST}</vFCPST><vFCPSTRet>0.00</vFCPSTRet><vProd>${totals.vProd}</vProd><vFrete>${totals.vFrete}</vFrete><vSeg>${totals.vSeg}</vSeg><vDesc>${totals.vDesc}</vDesc>` +
    `<vII>0.00</vII><vIPI>${totals.vIPI}</vIPI><vIPIDevol>0.00</vIPIDevol><vPIS>${totals.vPIS}</vPIS><vCOFINS>${totals.vCOFINS}</vCOFINS><vOutro>${totals.vOutro}</vOutro><vNF>${totals.vNF}</vNF></ICMSTot></total>` +
    `<transp><modFrete>0</modFrete><vol><qVol>${items.length}</qVol><esp>CAIXA</esp></vol></transp>` +
    cobr +
    `<pag><detPag><indPag>${installments.length ? 1 : 0}</indPag><tPag>${installments.length ? 15 : 90}</tPag><vPag>${installments.length ? totals.vNF : '0.00'}</vPag></detPag></pag>` +
    `<infAdic>${el('infCpl', spec.additionalInfo ?? 'DOCUMENTO DE TESTE')}</infAdic>` +
    `</infNFe>`;
  const unsignedNfe = `<NFe xmlns="${NS}">${infNFe}</NFe>`;
  const nfe = spec.unsigned ? unsignedNfe : signNfeXml(unsignedNfe, spec.signer);
  const digestValue = /<DigestValue>([^<]+)<\/DigestValue>/.exec(nfe)?.[1] ?? null;

  const protocol =
    spec.protocol === null
      ? ''
      : `<protNFe versao="4.00"><infProt><tpAmb>${environment}</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>${accessKey}</chNFe>` +
        `<dhRecbto>${issuedAt}</dhRecbto><nProt>1${accessKey.slice(0, 2)}${String(number).padStart(12, '0')}</nProt>${digestValue ? `<digVal>${digestValue}</digVal>` : ''}` +
        `<cStat>${spec.protocol?.cStat ?? '100'}</cStat><xMotivo>${esc(spec.protocol?.xMotivo ?? 'Autorizado o uso da NF-e')}</xMotivo></infProt></protNFe>`;
  const xml = spec.protocol === null ? `<?xml version="1.0" encoding="UTF-8"?>${nfe}` : `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="${NS}" versao="4.00">${nfe}${protocol}</nfeProc>`;
  return { xml, accessKey, totals, digestValue, installments };
}

/** N simple items (for large documents and benchmarks). */
export function manyItems(n: number, over: Partial<NfeItemSpec> = {}): NfeItemSpec[] {
  return Array.from({ length: n }, (_v, i) => ({
    code: `SKU${String(i + 1).padStart(5, '0')}`,
    description: `PRODUTO ${i + 1} EMBALAGEM ${1 + (i % 12)} UN`,
    quantity: String(1 + (i % 7)),
    unitPrice: `${3 + (i % 50)}.${String((i * 37) % 100).padStart(2, '0')}`,
    icms: { cst: '00', rate: '18' },
    pisRate: '1.65',
    cofinsRate: '7.60',
    ...over,
  }));
}

export { addDays };
