import { addCalendarDays } from '../../../core/business-date';
import { Dec } from '../../../core/decimal';
import { barcodeDv, mod10, pad } from './check-digits';
import type { BankCode } from './banks';

/*
 * The FEBRABAN boleto barcode (44 digits) and linha digitável (47), "Especificações Técnicas para
 * Confecção de Boleto de Pagamento" (FEBRABAN) and its 2025 note on the due-date factor:
 *
 *   barcode  = bank(3) currency 9 (1) DV(1) factor(4) value in cents(10) campo livre(25)
 *   linha    = [bank 9 CL1-5 DV10] [CL6-15 DV10] [CL16-25 DV10] [DV] [factor value]
 *
 * The factor counts days from 1997-10-07 (1000 = 2000-07-03); it reached 9999 on 2025-02-21 and
 * restarted at 1000 on 2025-02-22, so it repeats every 9000 days: reading one back needs a
 * reference date, and the due date is the one of the cycle nearest to it.
 */

const BASE_DATE = '1997-10-07';
const DAY_MS = 86_400_000;
const CYCLE = 9000;

const dayNumber = (iso: string) => Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / DAY_MS;
const BASE_DAY = dayNumber(BASE_DATE);

/** The due-date factor of a date (from 2000-07-03 on): 1000…9999, restarting at 1000 every 9000 days (2025-02-22 is 1000). */
export function dueDateFactor(dueDate: string): string {
  const days = dayNumber(dueDate) - BASE_DAY;
  if (days < 1000) throw new Error(`no due-date factor before 2000-07-03 (${dueDate})`);
  return String(((days - 1000) % CYCLE) + 1000);
}

/** The date a factor stands for: the one of its 9000-day cycles nearest to `reference` (ISO date). */
export function dueDateOfFactor(factor: string, reference: string): string | null {
  const f = Number(factor);
  if (!/^\d{4}$/.test(factor) || f < 1000) return null; // 0000: no due date (à vista)
  const ref = dayNumber(reference) - BASE_DAY;
  const k = Math.round((ref - f) / CYCLE);
  const days = f + Math.max(0, k) * CYCLE;
  return addCalendarDays(BASE_DATE, days);
}

/** The value field: cents in 10 digits (up to 99,999,999.99). */
export function valueField(amount: Dec): string {
  const cents = amount.times(100);
  if (!cents.isInteger() || cents.lt(0) || cents.gt(9_999_999_999))
    throw new Error(`a boleto value must be 0.00…99,999,999.99 (${amount.toFixed()})`);
  return pad(cents.toFixed(0), 10);
}

export interface BoletoCode {
  barcode: string;
  digitableLine: string;
}

/** The 44-digit barcode and the 47-digit linha digitável of a title. */
export function boletoCode(bankCode: BankCode, dueDate: string, amount: Dec, campoLivre: string): BoletoCode {
  if (!/^\d{25}$/.test(campoLivre)) throw new Error(`campo livre must be 25 digits (${campoLivre})`);
  const tail = dueDateFactor(dueDate) + valueField(amount) + campoLivre;
  const head = bankCode + '9';
  const dv = barcodeDv(head + tail);
  const barcode = head + String(dv) + tail;
  return { barcode, digitableLine: digitableLineOf(barcode) };
}

/** The linha digitável of a barcode: its three fields with their módulo-10 DVs, the general DV, factor and value. */
export function digitableLineOf(barcode: string): string {
  const f1 = barcode.slice(0, 4) + barcode.slice(19, 24);
  const f2 = barcode.slice(24, 34);
  const f3 = barcode.slice(34, 44);
  return f1 + mod10(f1) + f2 + mod10(f2) + f3 + mod10(f3) + barcode[4] + barcode.slice(5, 19);
}

/** The barcode a linha digitável encodes (no check). */
export function barcodeOfDigitableLine(line: string): string {
  return line.slice(0, 4) + line[32] + line.slice(33, 47) + line.slice(4, 9) + line.slice(10, 20) + line.slice(21, 31);
}

export interface DecodedBoleto {
  bankCode: string;
  amount: Dec;
  dueDate: string | null;
  campoLivre: string;
}

/**
 * Reads a barcode or linha digitável back, checking every check digit; `reference` resolves the
 * factor's cycle (today, for a title being paid). Throws naming the first DV that fails.
 */
export function decodeBoleto(code: string, reference: string): DecodedBoleto {
  let barcode = code;
  if (/^\d{47}$/.test(code)) {
    const fields: [number, number][] = [
      [0, 9],
      [10, 20],
      [21, 31],
    ];
    fields.forEach(([from, to], i) => {
      if (mod10(code.slice(from, to)) !== Number(code[to]))
        throw new Error(`linha digitável field ${i + 1}: check digit ${code[to]} should be ${mod10(code.slice(from, to))}`);
    });
    barcode = barcodeOfDigitableLine(code);
  } else if (!/^\d{44}$/.test(code)) {
    throw new Error('a boleto is a 44-digit barcode or a 47-digit linha digitável');
  }
  const dv = barcodeDv(barcode.slice(0, 4) + barcode.slice(5));
  if (dv !== Number(barcode[4])) throw new Error(`barcode: general check digit ${barcode[4]} should be ${dv}`);
  if (barcode[3] !== '9') throw new Error('barcode: currency must be 9 (real)');
  return {
    bankCode: barcode.slice(0, 3),
    amount: new Dec(barcode.slice(9, 19)).div(100),
    dueDate: dueDateOfFactor(barcode.slice(5, 9), reference),
    campoLivre: barcode.slice(19, 44),
  };
}
