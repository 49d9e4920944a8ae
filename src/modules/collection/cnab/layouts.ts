import type { BankCode, CnabLayout } from '../banks/banks';
import { parseRemessa240, parseRetorno240, REMESSA_MOVEMENT, writeRemessa240, writeRetorno240 } from './cnab240';
import type { Cnab400Layout } from './cnab400';
import { BB_400 } from './cnab400-bb';
import { BRADESCO_400 } from './cnab400-bradesco';
import { CAIXA_400 } from './cnab400-caixa';
import { ITAU_400 } from './cnab400-itau';
import { SANTANDER_400 } from './cnab400-santander';

/** Each bank's CNAB 400 (its own manual); a bank not listed has none (banks.ts does not offer it: 422 LAYOUT_NOT_OFFERED). */
const CNAB400: Partial<Record<BankCode, Cnab400Layout>> = {
  '341': ITAU_400,
  '237': BRADESCO_400,
  '033': SANTANDER_400,
  '001': BB_400,
  '104': CAIXA_400,
};

/**
 * The writers and readers of an account's layout: CNAB 240 (FEBRABAN, every bank) or the bank's
 * CNAB 400; `movements` are the instructions (FEBRABAN movement codes) the layout has a command for.
 */
export function cnabLayout(layout: CnabLayout, bankCode: BankCode) {
  if (layout === 'CNAB400') {
    const bank = CNAB400[bankCode];
    if (!bank) throw new Error(`no CNAB 400 layout for bank ${bankCode}`);
    return bank;
  }
  return {
    writeRemessa: writeRemessa240,
    parseRemessa: parseRemessa240,
    writeRetorno: writeRetorno240,
    parseRetorno: parseRetorno240,
    movements: Object.values(REMESSA_MOVEMENT) as readonly string[],
  };
}
