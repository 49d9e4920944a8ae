import { Dec } from '../../../core/decimal';
import { fiscalDateTime } from '../../../core/business-date';
import type { ComputedFiscalDocument, FiscalAddress, FiscalItem, IcmsGroup, PisCofinsGroup } from '../../fiscal';
import { amountDueOf, itemValueOf } from '../../fiscal';
import { buildAccessKey } from '../../fiscal-xml';
import { canonicalText, NFE_NS } from '../../authority';

/*
 * The NF-e 4.00 (layout PL_010_V1.30) of a computed fiscal document. Written as text in canonical
 * form (C14N 1.0: attributes in order, text escaped only for & < >, no whitespace between tags), so
 * the signer digests exactly these bytes (authority/xml/xmldsig.ts) and nothing re-serialises the document.
 * Free text is reduced to the layout's character range (TString: up to U+00FF, no control characters).
 */

export const VER_PROC = 'backoffice-nfe 1.0';
export const HOMOLOGATION_RECIPIENT = 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL';

export interface Installment {
  /** nDup, e.g. "001". */
  number: string;
  dueDate: string;
  amount: Dec;
}

export interface NfeTransport {
  /** modFrete: 0 issuer, 1 recipient, 2 third party, 3/4 own, 9 no transport. */
  mode: 0 | 1 | 2 | 3 | 4 | 9;
  volumes: { quantity: number; kind: string | null; grossWeight: Dec | null; netWeight: Dec | null } | null;
}

export interface NfeHeader {
  number: number;
  series: number;
  /** dhEmi. */
  issuedAt: Date;
  /** 1 normal, 6 SVC-AN, 7 SVC-RS. */
  emissionType: 1 | 6 | 7;
  contingency: { at: Date; reason: string } | null;
  /** cNF, 8 digits, never equal to nNF. */
  randomCode: string;
  tpAmb: '1' | '2';
  transport: NfeTransport;
  installments: Installment[];
  /** tPag of the payment (15 boleto, 01 cash, 99 other…). */
  paymentType: string;
  additionalInfo: string;
}

export interface BuiltNfe {
  accessKey: string;
  /** `<NFe xmlns=…><infNFe …>…</infNFe></NFe>` unsigned. */
  xml: string;
  /** The infNFe element as canonical text (with the inherited xmlns), what the signature digests. */
  canonicalInfNFe: string;
  issuedAtText: string;
}

const PLAIN = /^[!-~](?:[!-~]| (?! ))*$/;
const PLAIN_END = /[!-~]$/;

/** Layout text: one line, characters up to U+00FF, trimmed to `max`, never empty (null when nothing is left). */
export function layoutText(value: string | null | undefined, max: number): string | null {
  if (value === null || value === undefined) return null;
  // Most text is already plain single-spaced ASCII: nothing to clean.
  if (value.length <= max && PLAIN.test(value) && PLAIN_END.test(value)) return value;
  const cleaned = value
    .normalize('NFC')
    .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, (c) => (/\s/.test(c) ? ' ' : c.normalize('NFD').replace(/[^\x20-\x7e]/g, '')))
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
  return cleaned ? cleaned : null;
}

const el = (tag: string, value: string | number | null | undefined) =>
  value === null || value === undefined || value === ''
    ? ''
    : `<${tag}>${typeof value === 'number' ? value : canonicalText(value)}</${tag}>`;
const txt = (tag: string, value: string | null | undefined, max: number) => el(tag, layoutText(value, max));
const ZEROS = '0000000000';
/**
 * `d.toFixed(places)`. The engine's values are mostly already at their scale: then decimal.js's own
 * toFixed (a copy and a rounding pass per value, 40% of a 200-item build) is padding of toString().
 */
export function fixed(d: Dec, places: number): string {
  const s = d.toString();
  const dot = s.indexOf('.');
  const have = dot < 0 ? 0 : s.length - dot - 1;
  if (have > places || s.includes('e')) return d.toFixed(places);
  if (have === places) return s;
  return (dot < 0 ? `${s}.` : s) + ZEROS.slice(0, places - have);
}
const a2 = (d: Dec) => fixed(d, 2);
const q4 = (d: Dec) => fixed(d, 4);
const p10 = (d: Dec) => fixed(d, 10);
/** Rates: TDec_0302a04 (2 to 4 decimals). */
const r4 = (d: Dec) => fixed(d, 4);
const digits = (s: string | null | undefined) => (s ?? '').replace(/\D/g, '');

/** Date-time in Brasília time, no fraction: TDateTimeUTC (the fiscal clock of core/business-date.ts). */
export const brasilia = (at: Date): string => fiscalDateTime(at);

function address(tag: 'enderEmit' | 'enderDest', a: FiscalAddress): string {
  return (
    `<${tag}>${txt('xLgr', a.street, 60)}${txt('nro', a.number, 60)}${txt('xCpl', a.complement, 60)}${txt('xBairro', a.district, 60)}` +
    `${el('cMun', a.municipalityCode)}${txt('xMun', a.municipalityName, 60)}${el('UF', a.uf)}${el('CEP', digits(a.postalCode) || null)}` +
    `${el('cPais', a.countryCode)}${txt('xPais', a.countryName, 60)}` +
    `${el('fone', digits(a.phone).slice(0, 14) || null)}</${tag}>`
  );
}

/** ICMS of the regime normal (CST) or of the Simples Nacional (CSOSN), in the layout's group for it. */
export function icmsXml(g: IcmsGroup): string {
  const orig = `<orig>${g.origin}</orig>`;
  const st = g.st;
  const stXml = st
    ? `<modBCST>${st.modBCST}</modBCST>${st.mva ? el('pMVAST', r4(st.mva)) : ''}${st.baseReduction ? el('pRedBCST', r4(st.baseReduction)) : ''}` +
      `<vBCST>${a2(st.base)}</vBCST><pICMSST>${r4(st.rate)}</pICMSST><vICMSST>${a2(st.value)}</vICMSST>` +
      (st.fcpValue && st.fcpValue.gt(0)
        ? `<vBCFCPST>${a2(st.fcpBase ?? st.base)}</vBCFCPST><pFCPST>${r4(st.fcpRate ?? new Dec(0))}</pFCPST><vFCPST>${a2(st.fcpValue)}</vFCPST>`
        : '')
    : '';
  const fcp = g.fcpValue && g.fcpValue.gt(0) ? `<pFCP>${r4(g.fcpRate ?? new Dec(0))}</pFCP><vFCP>${a2(g.fcpValue)}</vFCP>` : '';
  const fcpWithBase = g.fcpValue && g.fcpValue.gt(0) ? `<vBCFCP>${a2(g.fcpBase ?? g.base)}</vBCFCP>${fcp}` : '';
  const own = `<modBC>${g.modBC ?? 3}</modBC>`;
  // ICMS60 / ICMSSN500: the ST retained earlier (N26–N26b, N27) and the FCP-ST retained (N27a–N27d), in the layout's order.
  const rt = g.retained;
  const retainedXml = rt
    ? `<vBCSTRet>${a2(rt.base)}</vBCSTRet><pST>${r4(rt.rate)}</pST>${rt.substituteValue ? `<vICMSSubstituto>${a2(rt.substituteValue)}</vICMSSubstituto>` : ''}<vICMSSTRet>${a2(rt.value)}</vICMSSTRet>` +
      (rt.fcpValue
        ? `<vBCFCPSTRet>${a2(rt.fcpBase ?? rt.base)}</vBCFCPSTRet><pFCPSTRet>${r4(rt.fcpRate ?? new Dec(0))}</pFCPSTRet><vFCPSTRet>${a2(rt.fcpValue)}</vFCPSTRet>`
        : '')
    : '';
  const credit =
    g.simplesCreditRate && g.simplesCreditValue
      ? `<pCredSN>${r4(g.simplesCreditRate)}</pCredSN><vCredICMSSN>${a2(g.simplesCreditValue)}</vCredICMSSN>`
      : '';
  if (g.csosn) {
    const c = `<CSOSN>${g.csosn}</CSOSN>`;
    switch (g.csosn) {
      case '101':
        return `<ICMS><ICMSSN101>${orig}${c}${credit || '<pCredSN>0.00</pCredSN><vCredICMSSN>0.00</vCredICMSSN>'}</ICMSSN101></ICMS>`;
      case '201':
        return `<ICMS><ICMSSN201>${orig}${c}${stXml}${credit || '<pCredSN>0.00</pCredSN><vCredICMSSN>0.00</vCredICMSSN>'}</ICMSSN201></ICMS>`;
      case '202':
      case '203':
        return `<ICMS><ICMSSN202>${orig}${c}${stXml}</ICMSSN202></ICMS>`;
      case '500':
        return `<ICMS><ICMSSN500>${orig}${c}${retainedXml}</ICMSSN500></ICMS>`;
      case '900': {
        const ownPart = g.base.gt(0)
          ? `${own}<vBC>${a2(g.base)}</vBC>${g.baseReduction ? el('pRedBC', r4(g.baseReduction)) : ''}<pICMS>${r4(g.rate)}</pICMS><vICMS>${a2(g.value)}</vICMS>`
          : '';
        return `<ICMS><ICMSSN900>${orig}${c}${ownPart}${stXml}${credit}</ICMSSN900></ICMS>`;
      }
      default: // 102, 103, 300, 400
        return `<ICMS><ICMSSN102>${orig}${c}</ICMSSN102></ICMS>`;
    }
  }
  const cst = g.cst ?? '00';
  const c = `<CST>${cst}</CST>`;
  const normal = `${own}<vBC>${a2(g.base)}</vBC><pICMS>${r4(g.rate)}</pICMS><vICMS>${a2(g.value)}</vICMS>`;
  switch (cst) {
    case '00':
      return `<ICMS><ICMS00>${orig}${c}${normal}${fcp}</ICMS00></ICMS>`;
    case '10':
      return `<ICMS><ICMS10>${orig}${c}${normal}${fcpWithBase}${stXml}</ICMS10></ICMS>`;
    case '20':
      return `<ICMS><ICMS20>${orig}${c}${own}<pRedBC>${r4(g.baseReduction ?? new Dec(0))}</pRedBC><vBC>${a2(g.base)}</vBC><pICMS>${r4(g.rate)}</pICMS><vICMS>${a2(g.value)}</vICMS>${fcpWithBase}${desonXml(g)}</ICMS20></ICMS>`;
    case '40':
    case '41':
    case '50':
      return `<ICMS><ICMS40>${orig}${c}${desonXml(g)}</ICMS40></ICMS>`;
    case '51':
      return `<ICMS><ICMS51>${orig}${c}${g.base.gt(0) ? normal : ''}</ICMS51></ICMS>`;
    case '60':
      return `<ICMS><ICMS60>${orig}${c}${retainedXml}</ICMS60></ICMS>`;
    case '70':
      return `<ICMS><ICMS70>${orig}${c}${own}<pRedBC>${r4(g.baseReduction ?? new Dec(0))}</pRedBC><vBC>${a2(g.base)}</vBC><pICMS>${r4(g.rate)}</pICMS><vICMS>${a2(g.value)}</vICMS>${fcpWithBase}${stXml}</ICMS70></ICMS>`;
    default: // 90
      return `<ICMS><ICMS90>${orig}${c}${g.base.gt(0) ? `${own}<vBC>${a2(g.base)}</vBC>${g.baseReduction ? el('pRedBC', r4(g.baseReduction)) : ''}<pICMS>${r4(g.rate)}</pICMS><vICMS>${a2(g.value)}</vICMS>${fcpWithBase}` : ''}${stXml}</ICMS90></ICMS>`;
  }
}

/** vICMSDeson, motDesICMS and indDeduzDeson (N27a, N28, N28b) of a relieved ICMS. */
const desonXml = (g: IcmsGroup) =>
  g.relief
    ? `<vICMSDeson>${a2(g.relief.value)}</vICMSDeson><motDesICMS>${g.relief.reason}</motDesICMS><indDeduzDeson>${g.relief.deducted ? 1 : 0}</indDeduzDeson>`
    : '';

function pisCofinsXml(tag: 'PIS' | 'COFINS', g: PisCofinsGroup): string {
  const rate = tag === 'PIS' ? 'pPIS' : 'pCOFINS';
  const value = tag === 'PIS' ? 'vPIS' : 'vCOFINS';
  const cst = g.cst;
  if (cst === '01' || cst === '02')
    return `<${tag}><${tag}Aliq><CST>${cst}</CST><vBC>${a2(g.base)}</vBC><${rate}>${r4(g.rate)}</${rate}><${value}>${a2(g.value)}</${value}></${tag}Aliq></${tag}>`;
  if (['04', '05', '06', '07', '08', '09'].includes(cst)) return `<${tag}><${tag}NT><CST>${cst}</CST></${tag}NT></${tag}>`;
  return `<${tag}><${tag}Outr><CST>${cst}</CST><vBC>${a2(g.base)}</vBC><${rate}>${r4(g.rate)}</${rate}><${value}>${a2(g.value)}</${value}></${tag}Outr></${tag}>`;
}

function detXml(i: FiscalItem, issueDate: string): string {
  const gtin = i.gtin || 'SEM GTIN';
  const taxableGtin = i.taxableGtin || gtin;
  const opt = (tag: string, d: Dec) => (d.gt(0) ? `<${tag}>${a2(d)}</${tag}>` : '');
  const prod =
    `<prod>${txt('cProd', i.code, 60)}${el('cEAN', gtin)}${txt('xProd', i.description, 120)}${el('NCM', i.ncm)}${el('CEST', i.cest)}${i.benefitCode ? el('cBenef', i.benefitCode) : ''}${el('CFOP', i.cfop)}` +
    `${txt('uCom', i.unit, 6)}<qCom>${q4(i.quantity)}</qCom><vUnCom>${p10(i.unitPrice)}</vUnCom><vProd>${a2(i.grossTotal)}</vProd>` +
    `${el('cEANTrib', taxableGtin)}${txt('uTrib', i.taxableUnit, 6)}<qTrib>${q4(i.taxableQuantity)}</qTrib><vUnTrib>${p10(i.taxableUnitPrice)}</vUnTrib>` +
    `${opt('vFrete', i.freight)}${opt('vSeg', i.insurance)}${opt('vDesc', i.discount)}${opt('vOutro', i.otherExpenses)}<indTot>1</indTot></prod>`;
  const ipi = i.ipi
    ? ['00', '49', '50', '99'].includes(i.ipi.cst)
      ? `<IPI><cEnq>${i.ipi.enquadramento || '999'}</cEnq><IPITrib><CST>${i.ipi.cst}</CST><vBC>${a2(i.ipi.base)}</vBC><pIPI>${r4(i.ipi.rate)}</pIPI><vIPI>${a2(i.ipi.value)}</vIPI></IPITrib></IPI>`
      : `<IPI><cEnq>${i.ipi.enquadramento || '999'}</cEnq><IPINT><CST>${i.ipi.cst}</CST></IPINT></IPI>`
    : '';
  const d = i.difal;
  const difal = d
    ? `<ICMSUFDest><vBCUFDest>${a2(d.base)}</vBCUFDest><vBCFCPUFDest>${a2(d.fcpBase)}</vBCFCPUFDest><pFCPUFDest>${r4(d.fcpRate)}</pFCPUFDest>` +
      `<pICMSUFDest>${r4(d.internalRate)}</pICMSUFDest><pICMSInter>${d.interstateRate.toFixed(2)}</pICMSInter><pICMSInterPart>${r4(d.destinationShare)}</pICMSInterPart>` +
      `<vFCPUFDest>${a2(d.fcpValue)}</vFCPUFDest><vICMSUFDest>${a2(d.destinationValue)}</vICMSUFDest><vICMSUFRemet>${a2(d.originValue)}</vICMSUFRemet></ICMSUFDest>`
    : '';
  const r = i.ibsCbs;
  const ibsCbs = r
    ? `<IBSCBS><CST>${r.cst}</CST><cClassTrib>${r.cClassTrib}</cClassTrib><gIBSCBS><vBC>${a2(r.base)}</vBC>` +
      `<gIBSUF><pIBSUF>${r4(r.ibsUfRate)}</pIBSUF><vIBSUF>${a2(r.ibsUfValue)}</vIBSUF></gIBSUF><gIBSMun><pIBSMun>${r4(r.ibsMunRate)}</pIBSMun><vIBSMun>${a2(r.ibsMunValue)}</vIBSMun></gIBSMun>` +
      `<vIBS>${a2(r.ibsValue)}</vIBS><gCBS><pCBS>${r4(r.cbsRate)}</pCBS><vCBS>${a2(r.cbsValue)}</vCBS></gCBS></gIBSCBS></IBSCBS>`
    : '';
  const imposto = `<imposto><vTotTrib>${a2(i.approximateTaxes)}</vTotTrib>${icmsXml(i.icms)}${ipi}${pisCofinsXml('PIS', i.pis)}${pisCofinsXml('COFINS', i.cofins)}${difal}${ibsCbs}</imposto>`;
  const devol = i.returnedIpi
    ? `<impostoDevol><pDevol>${i.returnedIpi.percent.toFixed(2)}</pDevol><IPI><vIPIDevol>${a2(i.returnedIpi.value)}</vIPIDevol></IPI></impostoDevol>`
    : '';
  // vItem (NT 2025.002 VB01-10, the same function the totals' vNFTot = Σ vItem sums).
  const value = itemValueOf(i, issueDate);
  const vItem = value ? `<vItem>${a2(value)}</vItem>` : '';
  return `<det nItem="${i.lineNumber}">${prod}${imposto}${devol}${vItem}</det>`;
}

function totalXml(doc: ComputedFiscalDocument): string {
  const t = doc.totals;
  const icmsTot =
    `<ICMSTot><vBC>${a2(t.vBC)}</vBC><vICMS>${a2(t.vICMS)}</vICMS><vICMSDeson>${a2(t.vICMSDeson)}</vICMSDeson>` +
    (t.vFCPUFDest.gt(0) || t.vICMSUFDest.gt(0) || t.vICMSUFRemet.gt(0)
      ? `<vFCPUFDest>${a2(t.vFCPUFDest)}</vFCPUFDest><vICMSUFDest>${a2(t.vICMSUFDest)}</vICMSUFDest><vICMSUFRemet>${a2(t.vICMSUFRemet)}</vICMSUFRemet>`
      : '') +
    `<vFCP>${a2(t.vFCP)}</vFCP><vBCST>${a2(t.vBCST)}</vBCST><vST>${a2(t.vST)}</vST><vFCPST>${a2(t.vFCPST)}</vFCPST><vFCPSTRet>${a2(t.vFCPSTRet)}</vFCPSTRet>` +
    `<vProd>${a2(t.vProd)}</vProd><vFrete>${a2(t.vFrete)}</vFrete><vSeg>${a2(t.vSeg)}</vSeg><vDesc>${a2(t.vDesc)}</vDesc><vII>${a2(t.vII)}</vII>` +
    `<vIPI>${a2(t.vIPI)}</vIPI><vIPIDevol>${a2(t.vIPIDevol)}</vIPIDevol><vPIS>${a2(t.vPIS)}</vPIS><vCOFINS>${a2(t.vCOFINS)}</vCOFINS><vOutro>${a2(t.vOutro)}</vOutro>` +
    `<vNF>${a2(t.vNF)}</vNF><vTotTrib>${a2(t.vTotTrib)}</vTotTrib></ICMSTot>`;
  const z = '0.00';
  const g = t.ibsCbs;
  const ibsCbsTot = g
    ? `<IBSCBSTot><vBCIBSCBS>${a2(g.base)}</vBCIBSCBS><gIBS><gIBSUF><vDif>${z}</vDif><vDevTrib>${z}</vDevTrib><vIBSUF>${a2(g.ibsUf)}</vIBSUF></gIBSUF>` +
      `<gIBSMun><vDif>${z}</vDif><vDevTrib>${z}</vDevTrib><vIBSMun>${a2(g.ibsMun)}</vIBSMun></gIBSMun><vIBS>${a2(g.ibs)}</vIBS><vCredPres>${z}</vCredPres><vCredPresCondSus>${z}</vCredPresCondSus></gIBS>` +
      `<gCBS><vDif>${z}</vDif><vDevTrib>${z}</vDevTrib><vCBS>${a2(g.cbs)}</vCBS><vCredPres>${z}</vCredPres><vCredPresCondSus>${z}</vCredPresCondSus></gCBS></IBSCBSTot>` +
      (t.vNFTot ? `<vNFTot>${a2(t.vNFTot)}</vNFTot>` : '')
    : '';
  return `<total>${icmsTot}${ibsCbsTot}</total>`;
}

function transportXml(t: NfeTransport): string {
  const v = t.volumes;
  const vol = v
    ? `<vol>${el('qVol', v.quantity)}${txt('esp', v.kind, 60)}${v.netWeight ? `<pesoL>${v.netWeight.toFixed(3)}</pesoL>` : ''}${v.grossWeight ? `<pesoB>${v.grossWeight.toFixed(3)}</pesoB>` : ''}</vol>`
    : '';
  return `<transp><modFrete>${t.mode}</modFrete>${vol}</transp>`;
}

/** The document's NFe element (unsigned) and its access key. */
export function buildNfeXml(doc: ComputedFiscalDocument, h: NfeHeader): BuiltNfe {
  const issuer = doc.issuer;
  const issuedAtText = brasilia(h.issuedAt);
  const accessKey = buildAccessKey({
    ufCode: issuer.ufCode,
    issuedAt: issuedAtText,
    issuerDocument: issuer.document,
    model: String(doc.model),
    series: String(h.series),
    number: String(h.number),
    emissionType: String(h.emissionType),
    randomCode: h.randomCode,
  });
  const idDest = doc.destination === 'INTERNAL' ? 1 : doc.destination === 'INTERSTATE' ? 2 : 3;
  const refs = (doc.references ?? []).map((k) => `<NFref><refNFe>${k}</refNFe></NFref>`).join('');
  const contingency = h.contingency ? `<dhCont>${brasilia(h.contingency.at)}</dhCont>${txt('xJust', h.contingency.reason, 256)}` : '';
  const ide =
    `<ide><cUF>${issuer.ufCode}</cUF><cNF>${h.randomCode}</cNF>${txt('natOp', doc.operationNature, 60)}<mod>${doc.model}</mod><serie>${h.series}</serie><nNF>${h.number}</nNF>` +
    `<dhEmi>${issuedAtText}</dhEmi><dhSaiEnt>${issuedAtText}</dhSaiEnt><tpNF>${doc.direction}</tpNF><idDest>${idDest}</idDest><cMunFG>${issuer.address.municipalityCode}</cMunFG>` +
    `<tpImp>1</tpImp><tpEmis>${h.emissionType}</tpEmis><cDV>${accessKey[43]}</cDV><tpAmb>${h.tpAmb}</tpAmb><finNFe>${doc.purpose}</finNFe>` +
    `<indFinal>${doc.finalConsumer ? 1 : 0}</indFinal><indPres>${doc.presence}</indPres><procEmi>0</procEmi><verProc>${VER_PROC}</verProc>${contingency}${refs}</ide>`;
  const emitDoc = issuer.document.length === 11 ? el('CPF', issuer.document) : el('CNPJ', issuer.document);
  const emit =
    `<emit>${emitDoc}${txt('xNome', issuer.name, 60)}${txt('xFant', issuer.tradeName, 60)}${address('enderEmit', issuer.address)}` +
    `${el('IE', digits(issuer.stateRegistration) || 'ISENTO')}<CRT>${issuer.crt}</CRT></emit>`;
  const rc = doc.recipient;
  let dest = '';
  if (rc.document || rc.personType === 'FOREIGN') {
    const destDoc =
      rc.personType === 'FOREIGN'
        ? `<idEstrangeiro>${canonicalText(rc.document ?? '')}</idEstrangeiro>`
        : rc.document!.length === 11
          ? el('CPF', rc.document)
          : el('CNPJ', rc.document);
    const name = h.tpAmb === '2' ? HOMOLOGATION_RECIPIENT : rc.name;
    dest =
      `<dest>${destDoc}${txt('xNome', name, 60)}${rc.address ? address('enderDest', rc.address) : ''}<indIEDest>${rc.ieIndicator}</indIEDest>` +
      `${rc.ieIndicator === 1 ? el('IE', digits(rc.stateRegistration)) : ''}${txt('email', rc.email, 60)}</dest>`;
  }
  const det = doc.items.map((i) => detXml(i, doc.issueDate)).join('');
  // What the recipient pays (vNFTot, else vNF): the bill, its duplicatas and the payment agree with it.
  const vNF = amountDueOf(doc);
  const cobr = h.installments.length
    ? `<cobr><fat><nFat>${h.number}</nFat><vOrig>${a2(vNF)}</vOrig><vDesc>0.00</vDesc><vLiq>${a2(vNF)}</vLiq></fat>` +
      h.installments
        .map((d) => `<dup><nDup>${canonicalText(d.number)}</nDup><dVenc>${d.dueDate}</dVenc><vDup>${a2(d.amount)}</vDup></dup>`)
        .join('') +
      `</cobr>`
    : '';
  // tPag 90 (sem pagamento: devoluções, ajustes, transfers) carries vPag 0 and no indPag (NT 2016.002 rule 871).
  const pag =
    h.paymentType === '90'
      ? `<pag><detPag><tPag>90</tPag><vPag>0.00</vPag></detPag></pag>`
      : `<pag><detPag><indPag>${h.installments.length > 1 || (h.installments.length === 1 && h.installments[0].dueDate > issuedAtText.slice(0, 10)) ? 1 : 0}</indPag><tPag>${h.paymentType}</tPag><vPag>${a2(vNF)}</vPag></detPag></pag>`;
  const infAdic = layoutText(h.additionalInfo, 5000) ? `<infAdic>${txt('infCpl', h.additionalInfo, 5000)}</infAdic>` : '';
  const body = `${ide}${emit}${dest}${det}${totalXml(doc)}${transportXml(h.transport)}${cobr}${pag}${infAdic}`;
  const canonicalInfNFe = `<infNFe xmlns="${NFE_NS}" Id="NFe${accessKey}" versao="4.00">${body}</infNFe>`;
  const xml = `<NFe xmlns="${NFE_NS}"><infNFe Id="NFe${accessKey}" versao="4.00">${body}</infNFe></NFe>`;
  return { accessKey, xml, canonicalInfNFe, issuedAtText };
}
