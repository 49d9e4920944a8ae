import type { BankCode, CnabLayout } from '../banks/banks';
import { parseRemessa240, parseRetorno240, writeRemessa240, writeRetorno240 } from './cnab240';
import { BB400_MOVEMENTS, parseRemessa400Bb, parseRetorno400Bb, writeRemessa400Bb, writeRetorno400Bb } from './cnab400-bb';
import { CAIXA400_MOVEMENTS, parseRemessa400Caixa, parseRetorno400Caixa, writeRemessa400Caixa, writeRetorno400Caixa } from './cnab400-caixa';
import { parseRemessa400Itau, parseRetorno400Itau, writeRemessa400Itau, writeRetorno400Itau } from './cnab400-itau';

/** Every instruction (FEBRABAN movement code) a remessa can carry: CNAB 240 and Itaú's 400 carry them all. */
const ALL_MOVEMENTS = ['01', '02', '06', '09', '47'];

/**
 * The writers and readers of an account's layout: CNAB 240 (FEBRABAN, every bank) or the bank's
 * CNAB 400; `movements` are the instructions the layout has a command for.
 */
export function cnabLayout(layout: CnabLayout, bankCode: BankCode) {
  if (layout === 'CNAB400') {
    if (bankCode === '341')
      return { writeRemessa: writeRemessa400Itau, parseRemessa: parseRemessa400Itau, writeRetorno: writeRetorno400Itau, parseRetorno: parseRetorno400Itau, movements: ALL_MOVEMENTS };
    if (bankCode === '001') return { writeRemessa: writeRemessa400Bb, parseRemessa: parseRemessa400Bb, writeRetorno: writeRetorno400Bb, parseRetorno: parseRetorno400Bb, movements: BB400_MOVEMENTS };
    if (bankCode === '104')
      return { writeRemessa: writeRemessa400Caixa, parseRemessa: parseRemessa400Caixa, writeRetorno: writeRetorno400Caixa, parseRetorno: parseRetorno400Caixa, movements: CAIXA400_MOVEMENTS };
    throw new Error(`no CNAB 400 layout for bank ${bankCode}`);
  }
  return { writeRemessa: writeRemessa240, parseRemessa: parseRemessa240, writeRetorno: writeRetorno240, parseRetorno: parseRetorno240, movements: ALL_MOVEMENTS };
}
