import { SignedXml } from 'xml-crypto';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { Dec, round, sum } from '../../src/core/decimal';
import { accessKeyCheckDigit, buildAccessKey } from '../../src/modules/fiscal-xml/access-key';
import { DEFAULT_ISSUER_CNPJ } from './nfe-builder';
import { testCertificate } from './test-certificate';

/*
 * Builds valid CT-e 4.00 cteProc documents for tests (schema-valid against the PL_CTe_400 XSDs): a
 * road freight of a carrier over the NF-e keys given, the payer (toma) chosen among the parties or a
 * fourth party, vPrest with its components, ICMS (00 with a rate, 45 exempt, or Simples Nacional),
 * optional cobr installments, the access key computed from the fields, an RSA-SHA1 enveloped XMLDSig
 * over infCte (C14N) made by xml-crypto with a certificate created at test time, and the
 * authorization protocol. Tests tamper with the returned text.
 */

export type CteIcmsSpec = { cst: '00'; rate: string } | { cst: '45' } | { cst: 'SN' };

export interface CtePartySpec {
  cnpj: string;
  name?: string;
  uf?: string;
}

export interface CteSpec {
  carrier?: { cnpj?: string; name?: string; uf?: string };
  /** The goods' seller (rem); default the NF-e builder's default issuer. */
  sender?: CtePartySpec;
  /** The goods' buyer (dest): usually the filial. */
  recipient: CtePartySpec;
  /** Who pays: 0 sender, 1 shipper (= sender), 2 receiver (= recipient), 3 recipient (default: FOB), or another party (toma4). */
  payer?: '0' | '1' | '2' | '3' | { other: CtePartySpec };
  /** tpAmb: 1 production (default), 2 homologation. */
  environment?: '1' | '2';
  series?: string;
  number?: number;
  issuedAt?: string;
  /** vTPrest; vRec defaults to it. */
  total: string;
  receivable?: string;
  /** Components (default one "FRETE PESO" of the total). */
  components?: { name: string; value: string }[];
  icms?: CteIcmsSpec;
  nfeKeys: string[];
  /** Cargo value and gross weight (infCarga). */
  cargoValue?: string;
  grossWeight?: string;
  installments?: { dueDate: string; amount?: string }[];
  protocol?: { cStat?: string; xMotivo?: string } | null;
  signer?: { cnpj?: string; name?: string };
  unsigned?: boolean;
  wrongCheckDigit?: boolean;
}

export interface BuiltCte {
  xml: string;
  accessKey: string;
  icms: string;
  digestValue: string | null;
}

const NS = 'http://www.portalfiscal.inf.br/cte';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const a2 = (d: Dec) => d.toFixed(2);

let numberSeq = 5000;
export const DEFAULT_CARRIER_CNPJ = cnpjWithCheckDigits('987654320001');

function address(tag: string, uf: string): string {
  return `<${tag}><xLgr>RUA DO TESTE</xLgr><nro>100</nro><xBairro>CENTRO</xBairro><cMun>3550308</cMun><xMun>SAO PAULO</xMun><CEP>01001000</CEP><UF>${uf}</UF></${tag}>`;
}

function party(tag: 'rem' | 'exped' | 'receb' | 'dest', addressTag: string, p: CtePartySpec, fallbackName: string): string {
  return `<${tag}><CNPJ>${p.cnpj}</CNPJ><IE>ISENTO</IE><xNome>${esc(p.name ?? fallbackName)}</xNome>${address(addressTag, p.uf ?? 'SP')}</${tag}>`;
}

function icmsXml(spec: CteIcmsSpec, total: Dec): { xml: string; value: Dec } {
  if (spec.cst === '00') {
    const value = round(total.times(spec.rate).div(100), 2);
    return {
      xml: `<ICMS00><CST>00</CST><vBC>${a2(total)}</vBC><pICMS>${new Dec(spec.rate).toFixed(2)}</pICMS><vICMS>${a2(value)}</vICMS></ICMS00>`,
      value,
    };
  }
  if (spec.cst === '45') return { xml: '<ICMS45><CST>40</CST></ICMS45>', value: new Dec(0) };
  return { xml: '<ICMSSN><CST>90</CST><indSN>1</indSN></ICMSSN>', value: new Dec(0) };
}

export function signCteXml(cteXml: string, signer: { cnpj?: string; name?: string } = {}): string {
  const cert = testCertificate(signer.cnpj, signer.name);
  const sig = new SignedXml({
    privateKey: cert.privateKeyPem,
    publicCert: cert.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='infCte']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315'],
    digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
  });
  // The layout puts the Signature last in CTe, after infCTeSupl.
  sig.computeSignature(cteXml, { location: { reference: "//*[local-name(.)='CTe']", action: 'append' } });
  return sig.getSignedXml();
}

export function buildCte(spec: CteSpec): BuiltCte {
  const carrier = { cnpj: DEFAULT_CARRIER_CNPJ, name: 'TRANSPORTADORA TESTE LTDA', uf: 'SP', ...spec.carrier };
  const sender = spec.sender ?? { cnpj: DEFAULT_ISSUER_CNPJ, name: 'FORNECEDOR TESTE LTDA' };
  const issuedAt = spec.issuedAt ?? '2025-03-11T09:00:00-03:00';
  const number = spec.number ?? numberSeq++;
  const series = spec.series ?? '1';
  const environment = spec.environment ?? '1';
  const randomCode = String(10000000 + ((number * 7907) % 89999999)).slice(0, 8);
  let accessKey = buildAccessKey({
    ufCode: '35',
    issuedAt,
    issuerDocument: carrier.cnpj,
    model: '57',
    series,
    number: String(number),
    emissionType: '1',
    randomCode,
  });
  if (spec.wrongCheckDigit) accessKey = `${accessKey.slice(0, 43)}${(accessKeyCheckDigit(accessKey.slice(0, 43)) + 1) % 10}`;

  const total = new Dec(spec.total);
  const receivable = new Dec(spec.receivable ?? spec.total);
  const components = spec.components ?? [{ name: 'FRETE PESO', value: spec.total }];
  const icms = icmsXml(spec.icms ?? { cst: '45' }, total);
  const payer = spec.payer ?? '3';
  const toma =
    typeof payer === 'string'
      ? `<toma3><toma>${payer}</toma></toma3>`
      : `<toma4><toma>4</toma><CNPJ>${payer.other.cnpj}</CNPJ><IE>ISENTO</IE><xNome>${esc(payer.other.name ?? 'TOMADOR TERCEIRO LTDA')}</xNome>${address('enderToma', payer.other.uf ?? 'SP')}</toma4>`;
  const installments = (spec.installments ?? []).map((d, i, all) => ({
    number: String(i + 1).padStart(3, '0'),
    dueDate: d.dueDate,
    amount: new Dec(
      d.amount ??
        (i === all.length - 1
          ? receivable.minus(round(receivable.div(all.length), 2).times(all.length - 1))
          : round(receivable.div(all.length), 2)),
    ),
  }));
  const cobr = installments.length
    ? `<cobr><fat><nFat>${number}</nFat><vOrig>${a2(receivable)}</vOrig><vLiq>${a2(sum(installments.map((d) => d.amount)))}</vLiq></fat>${installments
        .map((d) => `<dup><nDup>${d.number}</nDup><dVenc>${d.dueDate}</dVenc><vDup>${a2(d.amount)}</vDup></dup>`)
        .join('')}</cobr>`
    : '';
  const cfop = (spec.recipient.uf ?? 'SP') === carrier.uf ? '5353' : '6353';

  const infCte =
    `<infCte versao="4.00" Id="CTe${accessKey}">` +
    `<ide><cUF>35</cUF><cCT>${randomCode}</cCT><CFOP>${cfop}</CFOP><natOp>PRESTACAO DE SERVICO DE TRANSPORTE</natOp><mod>57</mod><serie>${series}</serie><nCT>${number}</nCT>` +
    `<dhEmi>${issuedAt}</dhEmi><tpImp>1</tpImp><tpEmis>1</tpEmis><cDV>${accessKey[43]}</cDV><tpAmb>${environment}</tpAmb><tpCTe>0</tpCTe><procEmi>0</procEmi><verProc>cte-builder 1.0</verProc>` +
    `<cMunEnv>3550308</cMunEnv><xMunEnv>SAO PAULO</xMunEnv><UFEnv>SP</UFEnv><modal>01</modal><tpServ>0</tpServ>` +
    `<cMunIni>3550308</cMunIni><xMunIni>SAO PAULO</xMunIni><UFIni>SP</UFIni><cMunFim>3550308</cMunFim><xMunFim>SAO PAULO</xMunFim><UFFim>${spec.recipient.uf ?? 'SP'}</UFFim>` +
    `<retira>1</retira><indIEToma>1</indIEToma>${toma}</ide>` +
    `<emit><CNPJ>${carrier.cnpj}</CNPJ><IE>111222333444</IE><xNome>${esc(carrier.name)}</xNome>${address('enderEmit', carrier.uf)}<CRT>3</CRT></emit>` +
    party('rem', 'enderReme', sender, 'FORNECEDOR TESTE LTDA') +
    party('dest', 'enderDest', spec.recipient, 'LOJA DESTINATARIA LTDA') +
    `<vPrest><vTPrest>${a2(total)}</vTPrest><vRec>${a2(receivable)}</vRec>${components.map((c) => `<Comp><xNome>${esc(c.name)}</xNome><vComp>${new Dec(c.value).toFixed(2)}</vComp></Comp>`).join('')}</vPrest>` +
    `<imp><ICMS>${icms.xml}</ICMS></imp>` +
    `<infCTeNorm><infCarga><vCarga>${new Dec(spec.cargoValue ?? '1000').toFixed(2)}</vCarga><proPred>MERCADORIAS DIVERSAS</proPred>` +
    `<infQ><cUnid>01</cUnid><tpMed>PESO BRUTO</tpMed><qCarga>${new Dec(spec.grossWeight ?? '100').toFixed(4)}</qCarga></infQ></infCarga>` +
    (spec.nfeKeys.length ? `<infDoc>${spec.nfeKeys.map((k) => `<infNFe><chave>${k}</chave></infNFe>`).join('')}</infDoc>` : '') +
    `<infModal versaoModal="4.00"><rodo><RNTRC>12345678</RNTRC></rodo></infModal>${cobr}</infCTeNorm>` +
    `</infCte>`;
  const supl = `<infCTeSupl><qrCodCTe>https://nfe.fazenda.sp.gov.br/CTeConsulta/qrCode?chCTe=${accessKey}&amp;tpAmb=${environment}</qrCodCTe></infCTeSupl>`;
  const unsigned = `<CTe xmlns="${NS}">${infCte}${supl}</CTe>`;
  const signed = spec.unsigned ? unsigned : signCteXml(unsigned, { cnpj: carrier.cnpj, name: carrier.name, ...spec.signer });
  const digestValue = /<DigestValue>([^<]+)<\/DigestValue>/.exec(signed)?.[1] ?? null;
  const protocol =
    spec.protocol === null
      ? ''
      : `<protCTe versao="4.00"><infProt><tpAmb>${environment}</tpAmb><verAplic>SP-CTe-TEST</verAplic><chCTe>${accessKey}</chCTe><dhRecbto>${issuedAt}</dhRecbto>` +
        `<nProt>1${accessKey.slice(0, 2)}${String(number).padStart(12, '0')}</nProt>${digestValue ? `<digVal>${digestValue}</digVal>` : ''}` +
        `<cStat>${spec.protocol?.cStat ?? '100'}</cStat><xMotivo>${esc(spec.protocol?.xMotivo ?? 'Autorizado o uso do CT-e')}</xMotivo></infProt></protCTe>`;
  const xml =
    spec.protocol === null
      ? `<?xml version="1.0" encoding="UTF-8"?>${signed}`
      : `<?xml version="1.0" encoding="UTF-8"?><cteProc xmlns="${NS}" versao="4.00">${signed}${protocol}</cteProc>`;
  return { xml, accessKey, icms: a2(icms.value), digestValue };
}
