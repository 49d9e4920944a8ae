import type { Crt, FiscalOperation } from './fiscal-document';

/*
 * PIS/COFINS CST by the operation's class (IN RFB 1.009/2010 table 4.3.3; EFD-Contribuições guide):
 * 01–09 and 49 are exits, 50–98 entries, 99 either. An entry never carries an exit's CST and the
 * reverse; what a rule leaves empty follows the class — a sale is revenue (01), a transfer between
 * filiais and a remessa are no revenue (49, Lei 10.637/2002 art. 1 and 10.833/2003 art. 1 tax revenue),
 * a devolução de venda is an entry: a credit in the non-cumulative regime (50, Lei 10.637/2002 art. 3
 * VIII, Lei 10.833/2003 art. 3 VIII), an exclusion from revenue without credit in the cumulative one
 * (98, Lei 9.718/1998 art. 3 §2 I), and 99 for a Simples Nacional issuer (LC 123/2006 art. 13: in the DAS).
 */

export type PisCofinsRegime = 'SIMPLES_NACIONAL' | 'LUCRO_PRESUMIDO' | 'LUCRO_REAL';

/** The operations whose document is an entry (tpNF 0). */
export const ENTRY_OPERATIONS: ReadonlySet<FiscalOperation> = new Set(['RETURN']);

/** CSTs whose base and rate give a value: exits at the regime's rate, entries with credit (50–56). */
export const PIS_COFINS_RATED: ReadonlySet<string> = new Set(['01', '02', '50', '51', '52', '53', '54', '55', '56']);

export const isEntryCst = (cst: string) => Number(cst) >= 50 && cst !== '99';
export const isExitCst = (cst: string) => Number(cst) <= 49;

/** Why `cst` cannot be the PIS/COFINS CST of `operation` (null when it can). */
export function pisCofinsCstProblem(cst: string, operation: FiscalOperation): string | null {
  const entry = ENTRY_OPERATIONS.has(operation);
  if (entry && isExitCst(cst)) return `CST ${cst} is an exit's; a ${operation} is an entry (CST 50–99)`;
  if (!entry && isEntryCst(cst)) return `CST ${cst} is an entry's; a ${operation} is an exit (CST 01–49 or 99)`;
  return null;
}

/** The CST when the rule has none, by the operation's class and the issuer's regime. */
export function defaultPisCofinsCst(operation: FiscalOperation, regime: PisCofinsRegime, crt: Crt): string {
  if (operation === 'RETURN') return crt !== 3 ? '99' : regime === 'LUCRO_REAL' ? '50' : '98';
  if (operation === 'TRANSFER' || operation === 'BONUS') return '49';
  return crt !== 3 ? '49' : '01';
}

/**
 * The entry CST of a devolução de venda from the CST the sale carried: a taxed sale (01/02) returns
 * with credit in the non-cumulative regime (50) and as another entry otherwise (98; 99 in the Simples);
 * a sale without the contribution (03–09, 49) returns as another entry (98/99).
 */
export function saleReturnCst(saleCst: string | null, regime: PisCofinsRegime | undefined, crt: Crt): string {
  if (crt !== 3) return '99';
  if ((saleCst === '01' || saleCst === '02') && regime !== 'LUCRO_PRESUMIDO') return '50';
  return '98';
}

/** The exit CST of a devolução de compra: the supplier's sale CST is not ours to repeat; the credit taken on entry is reversed (49). */
export const purchaseReturnCst = (): string => '49';
