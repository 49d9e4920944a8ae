import { SignedXml } from 'xml-crypto';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { allocate, Dec, round, sum } from '../../src/core/decimal';
import { accessKeyCheckDigit, buildAccessKey } from '../../src/modules/fiscal-xml/access-key';
import { testCertificate, TestCertificateOptions } from './test-certificate';

/*
 * Builds valid layout-4.00 nfeProc documents for tests: any number of items, ICMS (normal, ST, Simples
 * Nacional), IPI, PIS/COFINS, charges and installments, totals computed with Dec by the layout's
 * rules, the access key computed from the fields (the emitter may have an alphanumeric CNPJ), an
 * RSA-SHA1 enveloped XMLDSig over infNFe (C14N, as the layout requires) made by xml-crypto with a
 * certificate created at test time, and the authorization protocol — optionally signed by the
 * "authority" too. With the tax-reform options (PL_010_V1.30, NT 2025.002) it adds per item IBSCBS
 * (gIBSCBS with deferral, returned tax, reduction and regular rates, or gIBSCBSMono; credit reversal
 * and presumed credit), IS, vItem and DFeReferenciado, in ide cMunFGIBS, finNFe 5/6, tpNFDebito,
 * tpNFCredito and NFref, and in the totals ISTot, IBSCBSTot and vNFTot. Its output validates against
 * the PL_010_V1.30 XSDs (tests/nfe/nfe-builder-schema.test.ts). Tests tamper with the returned text.
 */

export type IcmsSpec =
  | { cst: '00'; rate: string }
  | { cst: '10'; rate: string; stMva: string; stRate: string; fcpStRate?: string }
  /** relief: vICMSDeson (motDesICMS 9), deducted from the total (indDeduzDeson 1). */
  | { cst: '40' | '41'; relief?: string }
  | { csosn: '102' | '400' }
  /** Simples Nacional with the buyer's credit: pCredSN over vProd → vCredICMSSN (LC 123/2006 art. 23 §1º). */
  | { csosn: '101'; creditRate: string }
  | { csosn: '202'; stMva: string; stRate: string }
  /** Goods resold with the ST retained earlier (ICMS60): vBCSTRet, pST, vICMSSubstituto, vICMSSTRet, and the FCP-ST retained. */
  | {
      cst: '60';
      retained: { base: string; rate: string; substitute?: string; value: string; fcpBase?: string; fcpRate?: string; fcpValue?: string };
    };

/** IBSCBS of an item (values computed from the base and rates; 2026 test rates by default). */
export interface IbsCbsSpec {
  /** CST (default 000) and cClassTrib (default 000001). */
  cst?: string;
  classCode?: string;
  /** No gIBSCBS: only CST and cClassTrib (e.g. CST 410, suspension). */
  withoutValues?: boolean;
  /** vBC (default vProd − vDesc). */
  base?: string;
  /** pIBSUF, pIBSMun, pCBS (defaults 0.1000, 0.0000, 0.9000: the 2026 test rates). */
  ibsStateRate?: string;
  ibsMunicipalRate?: string;
  cbsRate?: string;
  /** gDif on each share: pDif (%). */
  deferralRate?: string;
  /** gDevTrib on each share: vDevTrib. */
  returned?: string;
  /** gRed on each share: pRedAliq (%); pAliqEfet follows. */
  reductionRate?: string;
  /** gTribRegular with the same rates. */
  regular?: boolean;
  /** gIBSCBSMono (gMonoPadrao) instead of gIBSCBS: base quantity and ad rem rates (R$ per unit). */
  singlePhase?: { quantity: string; ibsAdRem: string; cbsAdRem: string };
  /** gEstornoCred. */
  creditReversal?: { ibs: string; cbs: string };
  /** gCredPresOper with both shares at this rate. */
  presumedCredit?: { code: string; rate: string };
}

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
  /** xPed and nItemPed: the buyer's purchase order and its line. */
  purchaseOrder?: string;
  purchaseOrderLine?: string;
  ibsCbs?: IbsCbsSpec;
  /** IS: the selective tax at this rate (%) of vProd. */
  selectiveTax?: { rate: string };
  /** DFeReferenciado. */
  referencedDocument?: { accessKey: string; lineNumber?: number };
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
  /** Signing certificate: subject (default the issuer's) and authority (default the suite's trusted test root; `selfSigned` the attacker's). */
  signer?: SignerSpec;
  /** Leave the document unsigned. */
  unsigned?: boolean;
  /** Changes the NFe text before it is signed (a signed document that disagrees with itself). */
  beforeSigning?: (nfeXml: string) => string;
  /** The authority signs the protocol too (a second Signature, over protNFe/infProt). */
  protocolSigned?: boolean;
  /** finNFe (default 1), tpNFDebito, tpNFCredito, NFref/refNFe keys, cMunFGIBS. */
  purpose?: '1' | '2' | '3' | '4' | '5' | '6';
  debitNoteType?: string;
  creditNoteType?: string;
  references?: string[];
  ibsCbsMunicipality?: string;
  /**
   * vItem per item and vNFTot: WITH_TAXES adds the item's vIBS + vCBS + vIS (+ single phase),
   * WITHOUT_TAXES not; NONE writes neither. Default: WITH_TAXES when any item has IBSCBS or IS.
   */
  itemValues?: 'WITH_TAXES' | 'WITHOUT_TAXES' | 'NONE';
  /** Replace the key's check digit (and cDV) with another digit: a key that fails mod 11. */
  wrongCheckDigit?: boolean;
  additionalInfo?: string;
  /** NFref/refNFe: access keys of referenced documents (the same as `references`). */
  referencedKeys?: string[];
}

export interface BuiltNfe {
  xml: string;
  accessKey: string;
  /** The computed ICMSTot values (2 decimals), and vIBS, vCBS, vIS, vNFTot when the document has them. */
  totals: Record<string, string>;
  digestValue: string | null;
  installments: { number: string; dueDate: string; amount: string }[];
}

const NS = 'http://www.portalfiscal.inf.br/nfe';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const el = (tag: string, value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '' : `<${tag}>${esc(String(value))}</${tag}>`;
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
  reform: ReformItem | null;
}

interface ReformShare {
  rate: Dec;
  value: Dec;
  deferred: Dec;
  returned: Dec;
  effectiveRate: Dec | null;
  full: Dec;
}

/** The computed IBSCBS / IS of an item (null groups absent). */
interface ReformItem {
  base: Dec;
  state: ReformShare;
  municipal: ReformShare;
  cbs: ReformShare;
  ibs: Dec;
  mono: { quantity: Dec; ibsAdRem: Dec; cbsAdRem: Dec; ibs: Dec; cbs: Dec } | null;
  reversal: { ibs: Dec; cbs: Dec } | null;
  presumed: { code: string; rate: Dec; ibs: Dec; cbs: Dec } | null;
  is: { base: Dec; rate: Dec; value: Dec } | null;
  /** vIBS + vCBS + vIS + single phase: what a WITH_TAXES vItem adds. */
  taxes: Dec;
}

const ZERO = new Dec(0);
const a4 = (d: Dec) => d.toFixed(4);

function share(base: Dec, rate: string, s: IbsCbsSpec): ReformShare {
  const r = new Dec(rate);
  const effectiveRate = s.reductionRate ? round(r.times(new Dec(100).minus(s.reductionRate)).div(100), 4) : null;
  const full = round(base.times(effectiveRate ?? r).div(100), 2);
  const deferred = s.deferralRate ? round(full.times(s.deferralRate).div(100), 2) : ZERO;
  const returned = new Dec(s.returned ?? 0);
  return { rate: r, value: Dec.max(full.minus(deferred).minus(returned), 0), deferred, returned, effectiveRate, full };
}

function computeReform(spec: NfeItemSpec, total: Dec, discount: Dec): ReformItem | null {
  const s = spec.ibsCbs;
  if (!s && !spec.selectiveTax) return null;
  const base = s && !s.withoutValues && !s.singlePhase ? new Dec(s.base ?? total.minus(discount)) : ZERO;
  const zeroShare: ReformShare = { rate: ZERO, value: ZERO, deferred: ZERO, returned: ZERO, effectiveRate: null, full: ZERO };
  const general = !!s && !s.withoutValues && !s.singlePhase;
  const state = general ? share(base, s!.ibsStateRate ?? '0.1000', s!) : zeroShare;
  const municipal = general ? share(base, s!.ibsMunicipalRate ?? '0.0000', s!) : zeroShare;
  const cbs = general ? share(base, s!.cbsRate ?? '0.9000', s!) : zeroShare;
  const mono = s?.singlePhase
    ? (() => {
        const quantity = new Dec(s.singlePhase.quantity);
        const ibsAdRem = new Dec(s.singlePhase.ibsAdRem);
        const cbsAdRem = new Dec(s.singlePhase.cbsAdRem);
        return { quantity, ibsAdRem, cbsAdRem, ibs: round(quantity.times(ibsAdRem), 2), cbs: round(quantity.times(cbsAdRem), 2) };
      })()
    : null;
  const presumed = s?.presumedCredit
    ? {
        code: s.presumedCredit.code,
        rate: new Dec(s.presumedCredit.rate),
        ibs: round(base.times(s.presumedCredit.rate).div(100), 2),
        cbs: round(base.times(s.presumedCredit.rate).div(100), 2),
      }
    : null;
  const is = spec.selectiveTax
    ? { base: total, rate: new Dec(spec.selectiveTax.rate), value: round(total.times(spec.selectiveTax.rate).div(100), 2) }
    : null;
  const ibs = state.value.plus(municipal.value);
  return {
    base,
    state,
    municipal,
    cbs,
    ibs,
    mono,
    reversal: s?.creditReversal ? { ibs: new Dec(s.creditReversal.ibs), cbs: new Dec(s.creditReversal.cbs) } : null,
    presumed,
    is,
    taxes: ibs
      .plus(cbs.value)
      .plus(is?.value ?? 0)
      .plus(mono?.ibs ?? 0)
      .plus(mono?.cbs ?? 0),
  };
}

function shareXml(tag: string, rateTag: string, valueTag: string, sh: ReformShare, s: IbsCbsSpec): string {
  const dif = s.deferralRate ? `<gDif><pDif>${a4(new Dec(s.deferralRate))}</pDif><vDif>${a2(sh.deferred)}</vDif></gDif>` : '';
  const dev = s.returned ? `<gDevTrib><vDevTrib>${a2(sh.returned)}</vDevTrib></gDevTrib>` : '';
  const red = s.reductionRate
    ? `<gRed><pRedAliq>${a4(new Dec(s.reductionRate))}</pRedAliq><pAliqEfet>${a4(sh.effectiveRate!)}</pAliqEfet></gRed>`
    : '';
  return `<${tag}><${rateTag}>${a4(sh.rate)}</${rateTag}>${dif}${dev}${red}<${valueTag}>${a2(sh.value)}</${valueTag}></${tag}>`;
}

/** IS and IBSCBS, the last children of <imposto>. */
function reformXml(c: ComputedItem): string {
  const r = c.reform;
  if (!r) return '';
  const s = c.spec.ibsCbs;
  const is = r.is
    ? `<IS><CSTIS>000</CSTIS><cClassTribIS>000001</cClassTribIS><vBCIS>${a2(r.is.base)}</vBCIS><pIS>${a4(r.is.rate)}</pIS><vIS>${a2(r.is.value)}</vIS></IS>`
    : '';
  if (!s) return is;
  let group = '';
  if (r.mono) {
    const m = r.mono;
    group =
      `<gIBSCBSMono><gMonoPadrao><qBCMono>${a4(m.quantity)}</qBCMono><adRemIBS>${a4(m.ibsAdRem)}</adRemIBS><adRemCBS>${a4(m.cbsAdRem)}</adRemCBS>` +
      `<vIBSMono>${a2(m.ibs)}</vIBSMono><vCBSMono>${a2(m.cbs)}</vCBSMono></gMonoPadrao><vTotIBSMonoItem>${a2(m.ibs)}</vTotIBSMonoItem><vTotCBSMonoItem>${a2(m.cbs)}</vTotCBSMonoItem></gIBSCBSMono>`;
  } else if (!s.withoutValues) {
    const regular = s.regular
      ? `<gTribRegular><CSTReg>000</CSTReg><cClassTribReg>000001</cClassTribReg><pAliqEfetRegIBSUF>${a4(r.state.rate)}</pAliqEfetRegIBSUF><vTribRegIBSUF>${a2(r.state.full)}</vTribRegIBSUF>` +
        `<pAliqEfetRegIBSMun>${a4(r.municipal.rate)}</pAliqEfetRegIBSMun><vTribRegIBSMun>${a2(r.municipal.full)}</vTribRegIBSMun><pAliqEfetRegCBS>${a4(r.cbs.rate)}</pAliqEfetRegCBS><vTribRegCBS>${a2(r.cbs.full)}</vTribRegCBS></gTribRegular>`
      : '';
    group =
      `<gIBSCBS><vBC>${a2(r.base)}</vBC>${shareXml('gIBSUF', 'pIBSUF', 'vIBSUF', r.state, s)}${shareXml('gIBSMun', 'pIBSMun', 'vIBSMun', r.municipal, s)}` +
      `<vIBS>${a2(r.ibs)}</vIBS>${shareXml('gCBS', 'pCBS', 'vCBS', r.cbs, s)}${regular}</gIBSCBS>`;
  }
  const reversal = r.reversal
    ? `<gEstornoCred><vIBSEstCred>${a2(r.reversal.ibs)}</vIBSEstCred><vCBSEstCred>${a2(r.reversal.cbs)}</vCBSEstCred></gEstornoCred>`
    : '';
  const presumed = r.presumed
    ? `<gCredPresOper><vBCCredPres>${a2(r.base)}</vBCCredPres><cCredPres>${r.presumed.code}</cCredPres>` +
      `<gIBSCredPres><pCredPres>${a4(r.presumed.rate)}</pCredPres><vCredPres>${a2(r.presumed.ibs)}</vCredPres></gIBSCredPres>` +
      `<gCBSCredPres><pCredPres>${a4(r.presumed.rate)}</pCredPres><vCredPres>${a2(r.presumed.cbs)}</vCredPres></gCBSCredPres></gCredPresOper>`
    : '';
  return `${is}<IBSCBS><CST>${s.cst ?? '000'}</CST><cClassTrib>${s.classCode ?? '000001'}</cClassTrib>${group}${reversal}${presumed}</IBSCBS>`;
}

/** vItem without the reform taxes (NT 2025.002 VB01-10). */
const itemValueWithoutTaxes = (c: ComputedItem) =>
  c.total.minus(c.discount).minus(c.relief).plus(c.st).plus(c.fcpSt).plus(c.freight).plus(c.insurance).plus(c.other).plus(c.ipi);

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
  return {
    spec,
    total,
    discount,
    freight,
    insurance,
    other,
    icmsBase,
    icms,
    stBase,
    st,
    fcpSt,
    relief,
    ipi,
    pis,
    cofins,
    reform: computeReform(spec, total, discount),
  };
}

function icmsXml(c: ComputedItem): string {
  const s = c.spec.icms ?? { cst: '00', rate: '18' };
  if ('csosn' in s) {
    if (s.csosn === '202') {
      return `<ICMS><ICMSSN202><orig>0</orig><CSOSN>202</CSOSN><modBCST>4</modBCST><pMVAST>${s.stMva}</pMVAST><vBCST>${a2(c.stBase)}</vBCST><pICMSST>${s.stRate}</pICMSST><vICMSST>${a2(c.st)}</vICMSST></ICMSSN202></ICMS>`;
    }
    if (s.csosn === '101') {
      return `<ICMS><ICMSSN101><orig>0</orig><CSOSN>101</CSOSN><pCredSN>${new Dec(s.creditRate).toFixed(4)}</pCredSN><vCredICMSSN>${a2(round(c.total.times(s.creditRate).div(100), 2))}</vCredICMSSN></ICMSSN101></ICMS>`;
    }
    return `<ICMS><ICMSSN102><orig>0</orig><CSOSN>${s.csosn}</CSOSN></ICMSSN102></ICMS>`;
  }
  if ('retained' in s) {
    const rt = s.retained;
    const fcp = rt.fcpValue
      ? `<vBCFCPSTRet>${rt.fcpBase}</vBCFCPSTRet><pFCPSTRet>${rt.fcpRate}</pFCPSTRet><vFCPSTRet>${rt.fcpValue}</vFCPSTRet>`
      : '';
    return `<ICMS><ICMS60><orig>0</orig><CST>60</CST><vBCSTRet>${rt.base}</vBCSTRet><pST>${rt.rate}</pST>${rt.substitute ? `<vICMSSubstituto>${rt.substitute}</vICMSSubstituto>` : ''}<vICMSSTRet>${rt.value}</vICMSSTRet>${fcp}</ICMS60></ICMS>`;
  }
  if (!('rate' in s)) {
    const relief = c.relief.gt(0)
      ? `<vICMSDeson>${a2(c.relief)}</vICMSDeson><motDesICMS>9</motDesICMS><indDeduzDeson>1</indDeduzDeson>`
      : '';
    return `<ICMS><ICMS40><orig>0</orig><CST>${s.cst}</CST>${relief}</ICMS40></ICMS>`;
  }
  const normal = `<orig>0</orig><CST>${s.cst}</CST><modBC>3</modBC><vBC>${a2(c.icmsBase)}</vBC><pICMS>${s.rate}</pICMS><vICMS>${a2(c.icms)}</vICMS>`;
  if (s.cst === '10') {
    const fcp = c.fcpSt.gt(0) ? `<vBCFCPST>${a2(c.stBase)}</vBCFCPST><pFCPST>${s.fcpStRate}</pFCPST><vFCPST>${a2(c.fcpSt)}</vFCPST>` : '';
    return `<ICMS><ICMS10>${normal}<modBCST>4</modBCST><pMVAST>${s.stMva}</pMVAST><vBCST>${a2(c.stBase)}</vBCST><pICMSST>${s.stRate}</pICMSST><vICMSST>${a2(c.st)}</vICMSST>${fcp}</ICMS10></ICMS>`;
  }
  return `<ICMS><ICMS00>${normal}</ICMS00></ICMS>`;
}

function detXml(c: ComputedItem, n: number, itemValues: 'WITH_TAXES' | 'WITHOUT_TAXES' | 'NONE'): string {
  const s = c.spec;
  const gtin = s.gtin ?? 'SEM GTIN';
  const prod =
    `<prod>${el('cProd', s.code ?? `P${n}`)}${el('cEAN', gtin)}${el('xProd', s.description ?? `PRODUTO TESTE ${n}`)}${el('NCM', s.ncm ?? '21069090')}${el('CEST', s.cest)}` +
    `${el('CFOP', s.cfop ?? '5102')}${el('uCom', s.unit ?? 'UN')}${el('qCom', new Dec(s.quantity).toFixed(4))}${el('vUnCom', new Dec(s.unitPrice).toFixed(10))}${el('vProd', a2(c.total))}` +
    `${el('cEANTrib', gtin)}${el('uTrib', s.unit ?? 'UN')}${el('qTrib', new Dec(s.quantity).toFixed(4))}${el('vUnTrib', new Dec(s.unitPrice).toFixed(10))}` +
    `${c.freight.gt(0) ? el('vFrete', a2(c.freight)) : ''}${c.insurance.gt(0) ? el('vSeg', a2(c.insurance)) : ''}${c.discount.gt(0) ? el('vDesc', a2(c.discount)) : ''}${c.other.gt(0) ? el('vOutro', a2(c.other)) : ''}<indTot>1</indTot>${el('xPed', s.purchaseOrder)}${el('nItemPed', s.purchaseOrderLine)}</prod>`;
  const ipi = s.ipiRate
    ? `<IPI><cEnq>999</cEnq><IPITrib><CST>50</CST><vBC>${a2(c.total)}</vBC><pIPI>${s.ipiRate}</pIPI><vIPI>${a2(c.ipi)}</vIPI></IPITrib></IPI>`
    : '';
  const pis = s.pisRate
    ? `<PIS><PISAliq><CST>01</CST><vBC>${a2(c.total.minus(c.discount).plus(c.freight).plus(c.insurance).plus(c.other))}</vBC><pPIS>${s.pisRate}</pPIS><vPIS>${a2(c.pis)}</vPIS></PISAliq></PIS>`
    : '<PIS><PISNT><CST>07</CST></PISNT></PIS>';
  const cofins = s.cofinsRate
    ? `<COFINS><COFINSAliq><CST>01</CST><vBC>${a2(c.total.minus(c.discount).plus(c.freight).plus(c.insurance).plus(c.other))}</vBC><pCOFINS>${s.cofinsRate}</pCOFINS><vCOFINS>${a2(c.cofins)}</vCOFINS></COFINSAliq></COFINS>`
    : '<COFINS><COFINSNT><CST>07</CST></COFINSNT></COFINS>';
  const value = itemValueWithoutTaxes(c).plus(itemValues === 'WITH_TAXES' ? (c.reform?.taxes ?? 0) : 0);
  const vItem = itemValues === 'NONE' ? '' : `<vItem>${a2(value)}</vItem>`;
  const ref = s.referencedDocument
    ? `<DFeReferenciado><chaveAcesso>${s.referencedDocument.accessKey}</chaveAcesso>${el('nItem', s.referencedDocument.lineNumber)}</DFeReferenciado>`
    : '';
  return `<det nItem="${n}">${prod}<imposto>${icmsXml(c)}${ipi}${pis}${cofins}${reformXml(c)}</imposto>${vItem}${ref}</det>`;
}

function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

export interface SignerSpec extends TestCertificateOptions {
  cnpj?: string;
  name?: string;
  /** KeyInfo also carries the issuing authority's certificate (the chain a signer may send). */
  withChain?: boolean;
}

export function signNfeXml(nfeXml: string, signer: SignerSpec = {}): string {
  const cert = testCertificate(signer.cnpj, signer.name, signer);
  const sig = new SignedXml({
    privateKey: cert.privateKeyPem,
    // Several PEM blocks → several X509Certificate elements, the signer's first.
    publicCert: signer.withChain && signer.ca ? cert.certificatePem + signer.ca.certPem : cert.certificatePem,
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

/** The authority's signature over protNFe/infProt (enveloped, after infProt), as some authorities add it. */
export function signProtocolXml(
  procXml: string,
  signer: { cnpj?: string; name?: string } = { cnpj: '87958674000181', name: 'SEFAZ AUTORIZADORA TESTE' },
): string {
  const cert = testCertificate(signer.cnpj, signer.name);
  const sig = new SignedXml({
    privateKey: cert.privateKeyPem,
    publicCert: cert.certificatePem,
    signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    canonicalizationAlgorithm: 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
  });
  sig.addReference({
    xpath: "//*[local-name(.)='infProt']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315'],
    digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1',
  });
  sig.computeSignature(procXml, { location: { reference: "//*[local-name(.)='infProt']", action: 'after' } });
  return sig.getSignedXml();
}

/** IBSCBSTot, ISTot and vNFTot of the computed items (empty when no item has reform groups). */
function reformTotalsXml(
  items: ComputedItem[],
  vNF: Dec,
  itemValues: 'WITH_TAXES' | 'WITHOUT_TAXES' | 'NONE',
  totals: Record<string, string>,
): string {
  const reform = items.map((i) => i.reform).filter((r): r is ReformItem => r !== null);
  if (!reform.length) return '';
  const of = (pick: (r: ReformItem) => Dec | null | undefined) => sum(reform.map((r) => pick(r) ?? ZERO));
  const withIbsCbs = items.filter((i) => i.spec.ibsCbs).map((i) => i.reform!);
  const ofIbsCbs = (pick: (r: ReformItem) => Dec | null | undefined) => sum(withIbsCbs.map((r) => pick(r) ?? ZERO));
  const vIBS = ofIbsCbs((r) => r.ibs);
  const vCBS = ofIbsCbs((r) => r.cbs.value);
  const vIS = of((r) => r.is?.value);
  totals.vIBS = a2(vIBS);
  totals.vCBS = a2(vCBS);
  totals.vIS = a2(vIS);
  const isTot = reform.some((r) => r.is) ? `<ISTot><vIS>${a2(vIS)}</vIS></ISTot>` : '';
  const shareTot = (pick: (r: ReformItem) => ReformShare, valueTag: string) =>
    `<vDif>${a2(ofIbsCbs((r) => pick(r).deferred))}</vDif><vDevTrib>${a2(ofIbsCbs((r) => pick(r).returned))}</vDevTrib><${valueTag}>${a2(ofIbsCbs((r) => pick(r).value))}</${valueTag}>`;
  const mono = withIbsCbs.some((r) => r.mono)
    ? `<gMono><vIBSMono>${a2(ofIbsCbs((r) => r.mono?.ibs))}</vIBSMono><vCBSMono>${a2(ofIbsCbs((r) => r.mono?.cbs))}</vCBSMono><vIBSMonoReten>0.00</vIBSMonoReten><vCBSMonoReten>0.00</vCBSMonoReten><vIBSMonoRet>0.00</vIBSMonoRet><vCBSMonoRet>0.00</vCBSMonoRet></gMono>`
    : '';
  const reversal = withIbsCbs.some((r) => r.reversal)
    ? `<gEstornoCred><vIBSEstCred>${a2(ofIbsCbs((r) => r.reversal?.ibs))}</vIBSEstCred><vCBSEstCred>${a2(ofIbsCbs((r) => r.reversal?.cbs))}</vCBSEstCred></gEstornoCred>`
    : '';
  const ibsCbsTot = withIbsCbs.length
    ? `<IBSCBSTot><vBCIBSCBS>${a2(ofIbsCbs((r) => r.base))}</vBCIBSCBS>` +
      `<gIBS><gIBSUF>${shareTot((r) => r.state, 'vIBSUF')}</gIBSUF><gIBSMun>${shareTot((r) => r.municipal, 'vIBSMun')}</gIBSMun><vIBS>${a2(vIBS)}</vIBS>` +
      `<vCredPres>${a2(ofIbsCbs((r) => r.presumed?.ibs))}</vCredPres><vCredPresCondSus>0.00</vCredPresCondSus></gIBS>` +
      `<gCBS>${shareTot((r) => r.cbs, 'vCBS')}<vCredPres>${a2(ofIbsCbs((r) => r.presumed?.cbs))}</vCredPres><vCredPresCondSus>0.00</vCredPresCondSus></gCBS>${mono}${reversal}</IBSCBSTot>`
    : '';
  if (itemValues === 'NONE') return `${isTot}${ibsCbsTot}`;
  const vNFTot = itemValues === 'WITH_TAXES' ? vNF.plus(of((r) => r.taxes)) : vNF;
  totals.vNFTot = a2(vNFTot);
  return `${isTot}${ibsCbsTot}<vNFTot>${a2(vNFTot)}</vNFTot>`;
}

export function buildNfe(spec: NfeSpec): BuiltNfe {
  const issuer = {
    cnpj: DEFAULT_ISSUER_CNPJ,
    name: 'FORNECEDOR TESTE LTDA',
    tradeName: 'FORNECEDOR TESTE',
    uf: 'SP',
    stateRegistration: '111222333444',
    crt: '3' as const,
    ...spec.issuer,
  };
  const issuedAt = spec.issuedAt ?? '2025-03-10T10:00:00-03:00';
  const number = spec.number ?? numberSeq++;
  const series = spec.series ?? '1';
  const model = spec.model ?? '55';
  const environment = spec.environment ?? '1';
  const randomCode = spec.randomCode ?? String(10000000 + ((number * 7919) % 89999999)).slice(0, 8);
  let accessKey = buildAccessKey({
    ufCode: '35',
    issuedAt,
    issuerDocument: issuer.cnpj,
    model,
    series,
    number: String(number),
    emissionType: '1',
    randomCode,
  });
  if (spec.wrongCheckDigit) accessKey = `${accessKey.slice(0, 43)}${(accessKeyCheckDigit(accessKey.slice(0, 43)) + 1) % 10}`;

  const items = spec.items.map(computeItem);
  const itemValues = spec.itemValues ?? (items.some((i) => i.reform) ? 'WITH_TAXES' : 'NONE');
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
        const split = allocate(
          vNF,
          given.map(() => 1),
          2,
        );
        return given.map((d, i) => ({ number: String(i + 1).padStart(3, '0'), dueDate: d.dueDate, amount: d.amount ?? a2(split[i]) }));
      })()
    : [];
  const cobr = installments.length
    ? `<cobr><fat><nFat>${number}</nFat><vOrig>${a2(vNF)}</vOrig><vDesc>0.00</vDesc><vLiq>${a2(vNF)}</vLiq></fat>${installments
        .map((d) => `<dup><nDup>${d.number}</nDup><dVenc>${d.dueDate}</dVenc><vDup>${d.amount}</vDup></dup>`)
        .join('')}</cobr>`
    : '';
  const recipientDoc = spec.recipient.cnpj ? el('CNPJ', spec.recipient.cnpj) : el('CPF', spec.recipient.cpf);
  const reformTotals = reformTotalsXml(items, vNF, itemValues, totals);
  const references = [...(spec.references ?? []), ...(spec.referencedKeys ?? [])]
    .map((k) => `<NFref><refNFe>${k}</refNFe></NFref>`)
    .join('');

  const infNFe =
    `<infNFe versao="4.00" Id="NFe${accessKey}">` +
    `<ide><cUF>35</cUF><cNF>${randomCode}</cNF>${el('natOp', spec.operationNature ?? 'VENDA DE MERCADORIA')}<mod>${model}</mod><serie>${series}</serie><nNF>${number}</nNF>` +
    `<dhEmi>${issuedAt}</dhEmi><tpNF>1</tpNF><idDest>1</idDest><cMunFG>3550308</cMunFG>${el('cMunFGIBS', spec.ibsCbsMunicipality)}<tpImp>1</tpImp><tpEmis>1</tpEmis><cDV>${accessKey[43]}</cDV>` +
    `<tpAmb>${environment}</tpAmb><finNFe>${spec.purpose ?? '1'}</finNFe>${el('tpNFDebito', spec.debitNoteType)}${el('tpNFCredito', spec.creditNoteType)}` +
    `<indFinal>0</indFinal><indPres>9</indPres><procEmi>0</procEmi><verProc>nfe-builder 1.0</verProc>${references}</ide>` +
    `<emit><CNPJ>${issuer.cnpj}</CNPJ>${el('xNome', issuer.name)}${el('xFant', issuer.tradeName)}<enderEmit><xLgr>RUA TESTE</xLgr><nro>100</nro><xBairro>CENTRO</xBairro>` +
    `<cMun>3550308</cMun><xMun>SAO PAULO</xMun><UF>${issuer.uf}</UF><CEP>01001000</CEP><cPais>1058</cPais><xPais>BRASIL</xPais></enderEmit>` +
    `<IE>${issuer.stateRegistration}</IE><CRT>${issuer.crt}</CRT></emit>` +
    `<dest>${recipientDoc}${el('xNome', environment === '2' ? 'NF-E EMITIDA EM AMBIENTE DE HOMOLOGACAO - SEM VALOR FISCAL' : (spec.recipient.name ?? 'LOJA DESTINATARIA LTDA'))}` +
    `<enderDest><xLgr>AV TESTE</xLgr><nro>1</nro><xBairro>CENTRO</xBairro><cMun>3550308</cMun><xMun>SAO PAULO</xMun><UF>${spec.recipient.uf ?? 'SP'}</UF><CEP>01001000</CEP></enderDest><indIEDest>9</indIEDest></dest>` +
    items.map((c, i) => detXml(c, i + 1, itemValues)).join('') +
    `<total><ICMSTot><vBC>${totals.vBC}</vBC><vICMS>${totals.vICMS}</vICMS><vICMSDeson>${totals.vICMSDeson}</vICMSDeson><vFCP>0.00</vFCP><vBCST>${totals.vBCST}</vBCST><vST>${totals.vST}</vST>` +
    `<vFCPST>${totals.vFCPST}</vFCPST><vFCPSTRet>0.00</vFCPSTRet><vProd>${totals.vProd}</vProd><vFrete>${totals.vFrete}</vFrete><vSeg>${totals.vSeg}</vSeg><vDesc>${totals.vDesc}</vDesc>` +
    `<vII>0.00</vII><vIPI>${totals.vIPI}</vIPI><vIPIDevol>0.00</vIPIDevol><vPIS>${totals.vPIS}</vPIS><vCOFINS>${totals.vCOFINS}</vCOFINS><vOutro>${totals.vOutro}</vOutro><vNF>${totals.vNF}</vNF></ICMSTot>${reformTotals}</total>` +
    `<transp><modFrete>0</modFrete><vol><qVol>${items.length}</qVol><esp>CAIXA</esp></vol></transp>` +
    cobr +
    `<pag><detPag><indPag>${installments.length ? 1 : 0}</indPag><tPag>${installments.length ? 15 : 90}</tPag><vPag>${installments.length ? totals.vNF : '0.00'}</vPag></detPag></pag>` +
    `<infAdic>${el('infCpl', spec.additionalInfo ?? 'DOCUMENTO DE TESTE')}</infAdic>` +
    `</infNFe>`;
  const written = `<NFe xmlns="${NS}">${infNFe}</NFe>`;
  const unsignedNfe = spec.beforeSigning ? spec.beforeSigning(written) : written;
  const nfe = spec.unsigned ? unsignedNfe : signNfeXml(unsignedNfe, { cnpj: issuer.cnpj, name: issuer.name, ...spec.signer });
  const digestValue = /<DigestValue>([^<]+)<\/DigestValue>/.exec(nfe)?.[1] ?? null;

  const protocolNumber = `1${accessKey.slice(0, 2)}${String(number).padStart(12, '0')}`;
  const protocol =
    spec.protocol === null
      ? ''
      : `<protNFe versao="4.00"><infProt${spec.protocolSigned ? ` Id="ID${protocolNumber}"` : ''}><tpAmb>${environment}</tpAmb><verAplic>SP_NFE_PL009_V4</verAplic><chNFe>${accessKey}</chNFe>` +
        `<dhRecbto>${issuedAt}</dhRecbto><nProt>${protocolNumber}</nProt>${digestValue ? `<digVal>${digestValue}</digVal>` : ''}` +
        `<cStat>${spec.protocol?.cStat ?? '100'}</cStat><xMotivo>${esc(spec.protocol?.xMotivo ?? 'Autorizado o uso da NF-e')}</xMotivo></infProt></protNFe>`;
  const proc = `<nfeProc xmlns="${NS}" versao="4.00">${nfe}${protocol}</nfeProc>`;
  const xml = `<?xml version="1.0" encoding="UTF-8"?>${spec.protocol === null ? nfe : spec.protocolSigned ? signProtocolXml(proc) : proc}`;
  return { xml, accessKey, totals, digestValue, installments };
}

/**
 * Three lines that between them use every tax-reform group the builder writes: gIBSCBS with deferral,
 * returned tax, reduction, regular rates, credit reversal and presumed credit plus IS and IPI;
 * single-phase gIBSCBSMono; CST 410 without values and a DFeReferenciado.
 */
export const REFORM_ITEMS: NfeItemSpec[] = [
  {
    code: 'RT-1',
    description: 'BEBIDA ACUCARADA 2L',
    quantity: '2',
    unitPrice: '10',
    ipiRate: '5.00',
    ibsCbs: {
      deferralRate: '10.0000',
      returned: '0.01',
      reductionRate: '20.0000',
      regular: true,
      creditReversal: { ibs: '0.05', cbs: '0.10' },
      presumedCredit: { code: '01', rate: '1.0000' },
    },
    selectiveTax: { rate: '2.0000' },
  },
  {
    code: 'RT-2',
    description: 'OLEO DIESEL S10',
    unit: 'L',
    quantity: '100',
    unitPrice: '5.5',
    ibsCbs: { singlePhase: { quantity: '100.0000', ibsAdRem: '0.1000', cbsAdRem: '0.2000' } },
  },
  {
    code: 'RT-3',
    description: 'EMBALAGEM RETORNAVEL',
    quantity: '1',
    unitPrice: '3',
    ibsCbs: { cst: '410', classCode: '410999', withoutValues: true },
    referencedDocument: { accessKey: '35250137241249000107550014231152171571688010', lineNumber: 2 },
  },
];

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
