import type {
  NfeContribution,
  NfeIbsCbs,
  NfeIbsCbsRates,
  NfeIbsCbsShare,
  NfeIbsCbsShareTotals,
  NfeIbsCbsSinglePhase,
  NfeIbsCbsTotals,
  NfeIcms,
  NfeImportTax,
  NfeIpi,
  NfePresumedCreditShare,
  NfeSelectiveTax,
  NfeSinglePhaseValues,
} from './nfe-types';
import { Reader, XNode } from '../xml-reader';

/*
 * The tax groups of an NF-e item and the tax-reform totals: ICMS (every CST/CSOSN group), IPI, PIS,
 * COFINS, II, and the groups NT 2025.002 (layout PL_010_V1.30) adds — IBSCBS with gIBSCBS (gIBSUF,
 * gIBSMun, gCBS with deferral, returned tax and rate reduction; regular and government-purchase rates),
 * gIBSCBSMono (single phase), gTransfCred, gAjusteCompet, gEstornoCred, gCredPresOper,
 * gCredPresIBSZFM; IS; and in the totals IBSCBSTot and ISTot. Elements the XSD requires are required
 * here (a missing one is reported with its path); optional groups read as null.
 */

/** The one ICMS group inside <ICMS> (ICMS00…ICMS90, ICMSPart, ICMSST, ICMSSN101…ICMSSN900). */
export function readIcms(r: Reader, imposto: XNode | null, path: string): NfeIcms | null {
  const icms = r.node(imposto, 'ICMS', path);
  if (!icms) return null;
  const groups = r.childTags(icms);
  if (groups.length !== 1) {
    r.fail(`${path}/ICMS`, 'ICMS must hold exactly one tax group');
    return null;
  }
  const group = groups[0];
  const p = `${path}/ICMS/${group}`;
  const g = r.node(icms, group, `${path}/ICMS`) ?? {};
  const deducted = r.text(g, 'indDeduzDeson', p);
  return {
    group,
    origin: r.text(g, 'orig', p),
    cst: r.text(g, 'CST', p),
    csosn: r.text(g, 'CSOSN', p),
    baseMode: r.text(g, 'modBC', p),
    baseReduction: r.dec(g, 'pRedBC', p),
    base: r.dec(g, 'vBC', p),
    rate: r.dec(g, 'pICMS', p),
    value: r.dec(g, 'vICMS', p),
    fcpBase: r.dec(g, 'vBCFCP', p),
    fcpRate: r.dec(g, 'pFCP', p),
    fcpValue: r.dec(g, 'vFCP', p),
    stBaseMode: r.text(g, 'modBCST', p),
    stMva: r.dec(g, 'pMVAST', p),
    stBaseReduction: r.dec(g, 'pRedBCST', p),
    stBase: r.dec(g, 'vBCST', p),
    stRate: r.dec(g, 'pICMSST', p),
    stValue: r.dec(g, 'vICMSST', p),
    fcpStBase: r.dec(g, 'vBCFCPST', p),
    fcpStRate: r.dec(g, 'pFCPST', p),
    fcpStValue: r.dec(g, 'vFCPST', p),
    stRetainedBase: r.dec(g, 'vBCSTRet', p),
    stRetainedValue: r.dec(g, 'vICMSSTRet', p),
    stRetainedRate: r.dec(g, 'pST', p),
    stRetainedSubstitute: r.dec(g, 'vICMSSubstituto', p),
    fcpStRetainedBase: r.dec(g, 'vBCFCPSTRet', p),
    fcpStRetainedRate: r.dec(g, 'pFCPSTRet', p),
    fcpStRetainedValue: r.dec(g, 'vFCPSTRet', p),
    reliefValue: r.dec(g, 'vICMSDeson', p),
    reliefReason: r.text(g, 'motDesICMS', p),
    reliefDeducted: deducted === null ? null : deducted === '1',
    deferralRate: r.dec(g, 'pDif', p),
    deferredValue: r.dec(g, 'vICMSDif', p),
    operationValue: r.dec(g, 'vICMSOp', p),
    snCreditRate: r.dec(g, 'pCredSN', p),
    snCreditValue: r.dec(g, 'vCredICMSSN', p),
  };
}

export function readIpi(r: Reader, imposto: XNode | null, path: string): NfeIpi | null {
  const ipi = r.node(imposto, 'IPI', path);
  if (!ipi) return null;
  const p = `${path}/IPI`;
  const trib = r.node(ipi, 'IPITrib', p);
  const nt = r.node(ipi, 'IPINT', p);
  const g = trib ?? nt ?? {};
  const gp = `${p}/${trib ? 'IPITrib' : 'IPINT'}`;
  return {
    enquadramento: r.text(ipi, 'cEnq', p),
    cst: r.text(g, 'CST', gp),
    base: r.dec(g, 'vBC', gp),
    rate: r.dec(g, 'pIPI', gp),
    quantity: r.dec(g, 'qUnid', gp),
    unitValue: r.dec(g, 'vUnid', gp),
    value: r.dec(g, 'vIPI', gp),
  };
}

export function readContribution(r: Reader, imposto: XNode | null, tax: 'PIS' | 'COFINS', path: string): NfeContribution | null {
  const node = r.node(imposto, tax, path);
  if (!node) return null;
  const groups = r.childTags(node);
  if (groups.length !== 1) {
    r.fail(`${path}/${tax}`, `${tax} must hold exactly one group`);
    return null;
  }
  const group = groups[0];
  const p = `${path}/${tax}/${group}`;
  const g = r.node(node, group, `${path}/${tax}`) ?? {};
  return {
    group,
    cst: r.text(g, 'CST', p),
    base: r.dec(g, 'vBC', p),
    rate: r.dec(g, tax === 'PIS' ? 'pPIS' : 'pCOFINS', p),
    quantity: r.dec(g, 'qBCProd', p),
    unitValue: r.dec(g, 'vAliqProd', p),
    value: r.dec(g, tax === 'PIS' ? 'vPIS' : 'vCOFINS', p),
  };
}

export function readImportTax(r: Reader, imposto: XNode | null, path: string): NfeImportTax | null {
  const ii = r.node(imposto, 'II', path);
  if (!ii) return null;
  const p = `${path}/II`;
  return {
    base: r.zero(ii, 'vBC', p),
    customsExpenses: r.zero(ii, 'vDespAdu', p),
    value: r.zero(ii, 'vII', p),
    iof: r.zero(ii, 'vIOF', p),
  };
}

/* ---- Tax reform (PL_010) ---- */

/** gIBSUF / gIBSMun / gCBS of gIBSCBS: rate, optional deferral, returned tax and reduction, value. */
function readShare(r: Reader, parent: XNode, tag: string, rateTag: string, valueTag: string, path: string): NfeIbsCbsShare {
  const node = r.node(parent, tag, path);
  if (!node) r.fail(`${path}/${tag}`, `${tag} is required`);
  const p = `${path}/${tag}`;
  const g = node ?? {};
  const dif = r.node(g, 'gDif', p);
  const dev = r.node(g, 'gDevTrib', p);
  const red = r.node(g, 'gRed', p);
  return {
    rate: r.requiredDec(g, rateTag, p),
    deferral: dif ? { rate: r.requiredDec(dif, 'pDif', `${p}/gDif`), value: r.requiredDec(dif, 'vDif', `${p}/gDif`) } : null,
    returnedValue: dev ? r.requiredDec(dev, 'vDevTrib', `${p}/gDevTrib`) : null,
    reduction: red
      ? { rate: r.requiredDec(red, 'pRedAliq', `${p}/gRed`), effectiveRate: r.requiredDec(red, 'pAliqEfet', `${p}/gRed`) }
      : null,
    value: r.requiredDec(g, valueTag, p),
  };
}

/** gTribRegular (pAliqEfetReg…/vTribReg…) or gTribCompraGov (pAliq…/vTrib…). */
function readRates(r: Reader, g: XNode, rate: string, value: string, path: string): NfeIbsCbsRates {
  return {
    ibsStateRate: r.requiredDec(g, `${rate}IBSUF`, path),
    ibsStateValue: r.requiredDec(g, `${value}IBSUF`, path),
    ibsMunicipalRate: r.requiredDec(g, `${rate}IBSMun`, path),
    ibsMunicipalValue: r.requiredDec(g, `${value}IBSMun`, path),
    cbsRate: r.requiredDec(g, `${rate}CBS`, path),
    cbsValue: r.requiredDec(g, `${value}CBS`, path),
  };
}

function readGeneral(r: Reader, g: XNode, p: string): NfeIbsCbs['general'] {
  const regular = r.node(g, 'gTribRegular', p);
  const gov = r.node(g, 'gTribCompraGov', p);
  const rp = `${p}/gTribRegular`;
  return {
    base: r.requiredDec(g, 'vBC', p),
    ibsState: readShare(r, g, 'gIBSUF', 'pIBSUF', 'vIBSUF', p),
    ibsMunicipal: readShare(r, g, 'gIBSMun', 'pIBSMun', 'vIBSMun', p),
    ibsValue: r.requiredDec(g, 'vIBS', p),
    cbs: readShare(r, g, 'gCBS', 'pCBS', 'vCBS', p),
    regular: regular
      ? {
          cst: r.required(regular, 'CSTReg', rp),
          classCode: r.required(regular, 'cClassTribReg', rp),
          ...readRates(r, regular, 'pAliqEfetReg', 'vTribReg', rp),
        }
      : null,
    governmentPurchase: gov ? readRates(r, gov, 'pAliq', 'vTrib', `${p}/gTribCompraGov`) : null,
  };
}

/** gMonoPadrao / gMonoReten / gMonoRet: the tags differ only by their suffix ('', 'Reten', 'Ret'). */
function readSinglePhaseValues(r: Reader, parent: XNode, tag: string, suffix: string, path: string): NfeSinglePhaseValues | null {
  const g = r.node(parent, tag, path);
  if (!g) return null;
  const p = `${path}/${tag}`;
  return {
    baseQuantity: r.requiredDec(g, `qBCMono${suffix}`, p),
    ibsAdRemRate: r.requiredDec(g, `adRemIBS${suffix}`, p),
    ibsValue: r.requiredDec(g, `vIBSMono${suffix}`, p),
    cbsAdRemRate: r.requiredDec(g, `adRemCBS${suffix}`, p),
    cbsValue: r.requiredDec(g, `vCBSMono${suffix}`, p),
  };
}

function readSinglePhase(r: Reader, g: XNode, p: string): NfeIbsCbsSinglePhase {
  const dif = r.node(g, 'gMonoDif', p);
  const dp = `${p}/gMonoDif`;
  return {
    standard: readSinglePhaseValues(r, g, 'gMonoPadrao', '', p),
    withheld: readSinglePhaseValues(r, g, 'gMonoReten', 'Reten', p),
    previouslyWithheld: readSinglePhaseValues(r, g, 'gMonoRet', 'Ret', p),
    deferral: dif
      ? {
          ibsRate: r.requiredDec(dif, 'pDifIBS', dp),
          ibsValue: r.requiredDec(dif, 'vIBSMonoDif', dp),
          cbsRate: r.requiredDec(dif, 'pDifCBS', dp),
          cbsValue: r.requiredDec(dif, 'vCBSMonoDif', dp),
        }
      : null,
    ibsTotal: r.requiredDec(g, 'vTotIBSMonoItem', p),
    cbsTotal: r.requiredDec(g, 'vTotCBSMonoItem', p),
  };
}

function readPresumedCreditShare(r: Reader, parent: XNode, tag: string, path: string): NfePresumedCreditShare | null {
  const g = r.node(parent, tag, path);
  if (!g) return null;
  const p = `${path}/${tag}`;
  const value = r.dec(g, 'vCredPres', p);
  const suspendedValue = r.dec(g, 'vCredPresCondSus', p);
  if (!value && !suspendedValue) r.fail(`${p}/vCredPres`, 'vCredPres or vCredPresCondSus is required');
  return { rate: r.requiredDec(g, 'pCredPres', p), value, suspendedValue };
}

/** IBSCBS of an item (TTribNFe). */
export function readIbsCbs(r: Reader, imposto: XNode | null, path: string): NfeIbsCbs | null {
  const n = r.node(imposto, 'IBSCBS', path);
  if (!n) return null;
  const p = `${path}/IBSCBS`;
  const general = r.node(n, 'gIBSCBS', p);
  const mono = r.node(n, 'gIBSCBSMono', p);
  const transfer = r.node(n, 'gTransfCred', p);
  const adjustment = r.node(n, 'gAjusteCompet', p);
  const reversal = r.node(n, 'gEstornoCred', p);
  const presumed = r.node(n, 'gCredPresOper', p);
  const zfm = r.node(n, 'gCredPresIBSZFM', p);
  const donation = r.text(n, 'indDoacao', p);
  const sub = (tag: string) => `${p}/${tag}`;
  return {
    cst: r.required(n, 'CST', p),
    classCode: r.required(n, 'cClassTrib', p),
    donation: donation === null ? null : donation === '1',
    general: general ? readGeneral(r, general, sub('gIBSCBS')) : null,
    singlePhase: mono ? readSinglePhase(r, mono, sub('gIBSCBSMono')) : null,
    creditTransfer: transfer
      ? { ibsValue: r.requiredDec(transfer, 'vIBS', sub('gTransfCred')), cbsValue: r.requiredDec(transfer, 'vCBS', sub('gTransfCred')) }
      : null,
    competenceAdjustment: adjustment
      ? {
          period: r.required(adjustment, 'competApur', sub('gAjusteCompet')),
          ibsValue: r.requiredDec(adjustment, 'vIBS', sub('gAjusteCompet')),
          cbsValue: r.requiredDec(adjustment, 'vCBS', sub('gAjusteCompet')),
        }
      : null,
    creditReversal: reversal
      ? {
          ibsValue: r.requiredDec(reversal, 'vIBSEstCred', sub('gEstornoCred')),
          cbsValue: r.requiredDec(reversal, 'vCBSEstCred', sub('gEstornoCred')),
        }
      : null,
    presumedCredit: presumed
      ? {
          base: r.requiredDec(presumed, 'vBCCredPres', sub('gCredPresOper')),
          creditCode: r.required(presumed, 'cCredPres', sub('gCredPresOper')),
          ibs: readPresumedCreditShare(r, presumed, 'gIBSCredPres', sub('gCredPresOper')),
          cbs: readPresumedCreditShare(r, presumed, 'gCBSCredPres', sub('gCredPresOper')),
        }
      : null,
    zfmPresumedCredit: zfm
      ? {
          period: r.required(zfm, 'competApur', sub('gCredPresIBSZFM')),
          kind: r.required(zfm, 'tpCredPresIBSZFM', sub('gCredPresIBSZFM')),
          value: r.requiredDec(zfm, 'vCredPresIBSZFM', sub('gCredPresIBSZFM')),
        }
      : null,
  };
}

/** IS of an item (TIS). */
export function readSelectiveTax(r: Reader, imposto: XNode | null, path: string): NfeSelectiveTax | null {
  const n = r.node(imposto, 'IS', path);
  if (!n) return null;
  const p = `${path}/IS`;
  return {
    cst: r.required(n, 'CSTIS', p),
    classCode: r.required(n, 'cClassTribIS', p),
    base: r.dec(n, 'vBCIS', p),
    rate: r.dec(n, 'pIS', p),
    specificRate: r.dec(n, 'pISEspec', p),
    unit: r.text(n, 'uTrib', p),
    quantity: r.dec(n, 'qTrib', p),
    value: r.requiredDec(n, 'vIS', p),
  };
}

function readShareTotals(r: Reader, parent: XNode, tag: string, valueTag: string, path: string): NfeIbsCbsShareTotals {
  const g = r.node(parent, tag, path);
  if (!g) r.fail(`${path}/${tag}`, `${tag} is required`);
  const p = `${path}/${tag}`;
  return {
    deferredValue: r.requiredDec(g, 'vDif', p),
    returnedValue: r.requiredDec(g, 'vDevTrib', p),
    value: r.requiredDec(g, valueTag, p),
  };
}

/** total/IBSCBSTot (TIBSCBSMonoTot). */
export function readIbsCbsTotals(r: Reader, total: XNode | null, path: string): NfeIbsCbsTotals | null {
  const n = r.node(total, 'IBSCBSTot', path);
  if (!n) return null;
  const p = `${path}/IBSCBSTot`;
  const ibs = r.node(n, 'gIBS', p);
  const cbs = r.node(n, 'gCBS', p);
  const mono = r.node(n, 'gMono', p);
  const reversal = r.node(n, 'gEstornoCred', p);
  const ip = `${p}/gIBS`;
  const cp = `${p}/gCBS`;
  const mp = `${p}/gMono`;
  return {
    base: r.requiredDec(n, 'vBCIBSCBS', p),
    ibs: ibs
      ? {
          state: readShareTotals(r, ibs, 'gIBSUF', 'vIBSUF', ip),
          municipal: readShareTotals(r, ibs, 'gIBSMun', 'vIBSMun', ip),
          value: r.requiredDec(ibs, 'vIBS', ip),
          presumedCredit: r.requiredDec(ibs, 'vCredPres', ip),
          presumedCreditSuspended: r.requiredDec(ibs, 'vCredPresCondSus', ip),
        }
      : null,
    cbs: cbs
      ? {
          deferredValue: r.requiredDec(cbs, 'vDif', cp),
          returnedValue: r.requiredDec(cbs, 'vDevTrib', cp),
          value: r.requiredDec(cbs, 'vCBS', cp),
          presumedCredit: r.requiredDec(cbs, 'vCredPres', cp),
          presumedCreditSuspended: r.requiredDec(cbs, 'vCredPresCondSus', cp),
        }
      : null,
    singlePhase: mono
      ? {
          ibsValue: r.requiredDec(mono, 'vIBSMono', mp),
          cbsValue: r.requiredDec(mono, 'vCBSMono', mp),
          ibsWithheld: r.requiredDec(mono, 'vIBSMonoReten', mp),
          cbsWithheld: r.requiredDec(mono, 'vCBSMonoReten', mp),
          ibsPreviouslyWithheld: r.requiredDec(mono, 'vIBSMonoRet', mp),
          cbsPreviouslyWithheld: r.requiredDec(mono, 'vCBSMonoRet', mp),
        }
      : null,
    creditReversal: reversal
      ? {
          ibsValue: r.requiredDec(reversal, 'vIBSEstCred', `${p}/gEstornoCred`),
          cbsValue: r.requiredDec(reversal, 'vCBSEstCred', `${p}/gEstornoCred`),
        }
      : null,
  };
}

/** total/ISTot/vIS. */
export function readSelectiveTaxTotal(r: Reader, total: XNode | null, path: string) {
  const n = r.node(total, 'ISTot', path);
  return n ? r.requiredDec(n, 'vIS', `${path}/ISTot`) : null;
}
