import type { BankCode, CnabLayout } from '../banks/banks';
import { parseRemessa240, parseRetorno240, writeRemessa240, writeRetorno240 } from './cnab240';
import { parseRemessa400Itau, parseRetorno400Itau, writeRemessa400Itau, writeRetorno400Itau } from './cnab400-itau';

/** The writers and readers of an account's layout: CNAB 240 (FEBRABAN, every bank) or CNAB 400 (Itaú's). */
export function cnabLayout(layout: CnabLayout, bankCode: BankCode) {
  if (layout === 'CNAB400') {
    if (bankCode !== '341') throw new Error(`no CNAB 400 layout for bank ${bankCode}`);
    return { writeRemessa: writeRemessa400Itau, parseRemessa: parseRemessa400Itau, writeRetorno: writeRetorno400Itau, parseRetorno: parseRetorno400Itau };
  }
  return { writeRemessa: writeRemessa240, parseRemessa: parseRemessa240, writeRetorno: writeRetorno240, parseRetorno: parseRetorno240 };
}
