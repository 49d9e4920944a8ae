import { mod10, mod11, pad, weightedFromLeft } from './check-digits';

/*
 * One rule set per bank (docs/decisions/collection-boleto.md names each manual): the shape and
 * check digits of agência and conta, the carteiras and the beneficiary code the bank expects, the
 * nosso número (its digits and check digit) and the campo livre (positions 20–44 of the barcode).
 * The six banks issue 46 asked for; anything else is refused when the account is created.
 */

export const BANK_CODES = ['001', '341', '237', '033', '104', '756'] as const;
export type BankCode = (typeof BANK_CODES)[number];
export const CNAB_LAYOUTS = ['CNAB240', 'CNAB400'] as const;
export type CnabLayout = (typeof CNAB_LAYOUTS)[number];

/** What a bank's rules read of an account. */
export interface AccountData {
  bankCode: BankCode;
  agency: string;
  agencyDigit: string | null;
  account: string;
  accountDigit: string | null;
  carteira: string;
  beneficiaryCode: string | null;
  /** Banco do Brasil's variação da carteira (3 digits). */
  carteiraVariation?: string | null;
  /** Santander's código de transmissão (20 digits). */
  transmissionCode?: string | null;
}

/** The nosso número of a title: the digits the bank numbers it by, its check digit, how the boleto prints it. */
export interface NossoNumero {
  /** The identifying digits sent in the remessa and read back from the retorno (no check digit). */
  number: string;
  /** The bank's check digit ('' when the bank has none). */
  dv: string;
  printed: string;
}

export interface BankRule {
  code: BankCode;
  name: string;
  /** Digits of the account number (zero-padded to it). */
  accountLength: number;
  /** The agência's check digit, or null for a bank whose agência has none. */
  agencyDigit: ((agency: string) => string) | null;
  /** The conta's check digit. */
  accountDigit: (agency: string, account: string) => string;
  /** Allowed carteiras. */
  carteiras: RegExp;
  carteiraHint: string;
  /** Digits of the convênio / código do beneficiário, or null when the bank does not use one on the boleto. */
  beneficiaryCodeLength: number | null;
  /** The largest sequence value the nosso número holds. */
  maxSequence: number;
  layouts: CnabLayout[];
  /** What the bank's CNAB 400 needs of the account beyond its CNAB 240 (e.g. a code the bank assigns); its nosso número may also be shorter. */
  cnab400?: { needsBeneficiaryCode?: string; maxSequence?: number; needsCarteiraVariation?: string; takesTransmissionCode?: boolean };
  nossoNumero: (a: AccountData, sequence: number) => NossoNumero;
  /** The 25 digits of positions 20–44 of the barcode. */
  campoLivre: (a: AccountData, nn: NossoNumero) => string;
}

const mod11Zero = (s: string, base = 9) => mod11(s, { base, on10: '0', on11: '0' });

/** Itaú's carteiras whose nosso número DAC is computed over carteira + NN only (manual "Cobrança Itaú", 4.1). */
const ITAU_SHORT_DAC = new Set(['126', '131', '146', '150', '168']);

const SANTANDER_ACCOUNT_WEIGHTS = [9, 7, 3, 1, 9, 7, 1, 3, 1, 9, 7, 3];

export const BANKS: Record<BankCode, BankRule> = {
  '001': {
    code: '001',
    name: 'Banco do Brasil',
    accountLength: 8,
    agencyDigit: (agency) => mod11(pad(agency, 4), { on10: 'X', on11: '0' }),
    accountDigit: (_agency, account) => mod11(pad(account, 8), { on10: 'X', on11: '0' }),
    carteiras: /^(11|12|15|16|17|18|31|51)$/,
    carteiraHint: '11, 12, 15, 16, 17, 18, 31 or 51',
    // Convênio of 7 digits (the only kind BB opens today): nosso número = convênio + 10 digits, no DV.
    beneficiaryCodeLength: 7,
    maxSequence: 9_999_999_999,
    layouts: ['CNAB240', 'CNAB400'],
    cnab400: {
      needsCarteiraVariation:
        'variação da carteira: Banco do Brasil’s CNAB 400 (CBR641) needs the 3 digits BB assigned with the convênio (e.g. 019)',
    },
    nossoNumero: (a, seq) => {
      const number = a.beneficiaryCode! + pad(seq, 10);
      return { number, dv: '', printed: number };
    },
    campoLivre: (a, nn) => '000000' + nn.number + pad(a.carteira, 2),
  },
  '341': {
    code: '341',
    name: 'Itaú Unibanco',
    accountLength: 5,
    agencyDigit: null,
    accountDigit: (agency, account) => String(mod10(pad(agency, 4) + pad(account, 5))),
    carteiras: /^\d{3}$/,
    carteiraHint: 'three digits (109, 112, 157 …)',
    beneficiaryCodeLength: null,
    maxSequence: 99_999_999,
    layouts: ['CNAB240', 'CNAB400'],
    nossoNumero: (a, seq) => {
      const number = pad(seq, 8);
      const base = ITAU_SHORT_DAC.has(a.carteira) ? a.carteira + number : pad(a.agency, 4) + pad(a.account, 5) + a.carteira + number;
      const dv = String(mod10(base));
      return { number, dv, printed: `${a.carteira}/${number}-${dv}` };
    },
    campoLivre: (a, nn) =>
      a.carteira + nn.number + nn.dv + pad(a.agency, 4) + pad(a.account, 5) + String(mod10(pad(a.agency, 4) + pad(a.account, 5))) + '000',
  },
  '237': {
    code: '237',
    name: 'Bradesco',
    accountLength: 7,
    agencyDigit: (agency) => mod11(pad(agency, 4), { on10: 'P', on11: '0' }),
    accountDigit: (_agency, account) => mod11(pad(account, 7), { base: 7, on10: 'P', on11: '0' }),
    carteiras: /^\d{2}$/,
    carteiraHint: 'two digits (09, 06 …)',
    beneficiaryCodeLength: null,
    maxSequence: 99_999_999_999,
    layouts: ['CNAB240', 'CNAB400'],
    // The CNAB 400 header names the beneficiary by the código da empresa Bradesco assigns (20 digits).
    cnab400: { needsBeneficiaryCode: 'código da empresa: Bradesco’s CNAB 400 needs the code the bank assigned (up to 20 digits)' },
    nossoNumero: (a, seq) => {
      const number = pad(seq, 11);
      // Módulo 11 base 7 over carteira + NN; remainder 1 prints "P", remainder 0 prints "0".
      const dv = mod11(pad(a.carteira, 2) + number, { base: 7, on10: 'P', on11: '0' });
      return { number, dv, printed: `${pad(a.carteira, 2)}/${number}-${dv}` };
    },
    campoLivre: (a, nn) => pad(a.agency, 4) + pad(a.carteira, 2) + nn.number + pad(a.account, 7) + '0',
  },
  '033': {
    code: '033',
    name: 'Santander',
    accountLength: 8,
    agencyDigit: null,
    accountDigit: (agency, account) => {
      const digits = pad(agency, 4) + pad(account, 8);
      const sum = [...digits].reduce((acc, d, i) => acc + ((Number(d) * SANTANDER_ACCOUNT_WEIGHTS[i]) % 10), 0);
      return String((10 - (sum % 10)) % 10);
    },
    carteiras: /^(101|102|104|201)$/,
    carteiraHint: '101, 102, 104 or 201',
    beneficiaryCodeLength: 7,
    maxSequence: 999_999_999_999,
    layouts: ['CNAB240', 'CNAB400'],
    // CNAB 400 carries the nosso número in 7 digits + DV (63–70).
    // The código de transmissão the bank assigns, when given, replaces the derived one (cnab400-santander.ts).
    cnab400: { maxSequence: 9_999_999, takesTransmissionCode: true },
    nossoNumero: (_a, seq) => {
      const number = pad(seq, 12);
      const dv = mod11Zero(number);
      return { number, dv, printed: `${number}-${dv}` };
    },
    // '9' (fixed), beneficiary (7), NN + DV (13), IOF '0', carteira (3).
    campoLivre: (a, nn) => '9' + a.beneficiaryCode! + nn.number + nn.dv + '0' + a.carteira,
  },
  '104': {
    code: '104',
    name: 'Caixa Econômica Federal',
    // Operação (3) + conta (8).
    accountLength: 11,
    agencyDigit: null,
    accountDigit: (agency, account) => {
      const rest = (weightedFromLeft(pad(agency, 4) + pad(account, 11), [8, 7, 6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) * 10) % 11;
      return String(rest === 10 ? 0 : rest);
    },
    carteiras: /^RG$/,
    carteiraHint: 'RG (cobrança registrada, SIGCB)',
    beneficiaryCodeLength: 6,
    maxSequence: 999_999_999_999_999,
    layouts: ['CNAB240', 'CNAB400'],
    nossoNumero: (_a, seq) => {
      // SIGCB: modality 1 (registered) + 4 (issued by the beneficiary) + 15 digits.
      const number = '14' + pad(seq, 15);
      const dv = mod11Zero(number);
      return { number, dv, printed: `${number}-${dv}` };
    },
    campoLivre: (a, nn) => {
      const ben = a.beneficiaryCode!;
      const body =
        ben + mod11Zero(ben) + nn.number.slice(2, 5) + nn.number[0] + nn.number.slice(5, 8) + nn.number[1] + nn.number.slice(8, 17);
      return body + mod11Zero(body);
    },
  },
  '756': {
    code: '756',
    name: 'Sicoob',
    accountLength: 8,
    agencyDigit: null,
    accountDigit: (_agency, account) => mod11Zero(pad(account, 8)),
    carteiras: /^1$/,
    carteiraHint: '1 (simples com registro)',
    // Código do cliente (beneficiário) at the cooperativa, DV included.
    beneficiaryCodeLength: 7,
    maxSequence: 9_999_999,
    // Sicoob publishes CNAB 240 as its collection layout: CNAB 400 is refused (docs/decisions/collection-boleto.md).
    layouts: ['CNAB240'],
    nossoNumero: (a, seq) => {
      const number = pad(seq, 7);
      // Weights 3, 1, 9, 7 over cooperativa (4) + cliente (10) + NN (7); remainder 0 or 1 → 0.
      const rest = weightedFromLeft(pad(a.agency, 4) + pad(a.beneficiaryCode!, 10) + number, [3, 1, 9, 7]) % 11;
      const dv = String(rest <= 1 ? 0 : 11 - rest);
      return { number, dv, printed: `${number}-${dv}` };
    },
    // Carteira (1), cooperativa (4), modalidade 01, cliente (7), NN + DV (8), parcela 001.
    campoLivre: (a, nn) => a.carteira + pad(a.agency, 4) + '01' + a.beneficiaryCode! + nn.number + nn.dv + '001',
  },
};

/** The largest nosso número sequence of a bank in a layout (CNAB 400 fields may be shorter than the barcode's). */
export const layoutMaxSequence = (code: BankCode, layout: CnabLayout) =>
  (layout === 'CNAB400' && BANKS[code].cnab400?.maxSequence) || BANKS[code].maxSequence;

export const bankRule = (code: string): BankRule => {
  const rule = BANKS[code as BankCode];
  if (!rule) throw new Error(`unknown bank ${code}`);
  return rule;
};

/**
 * The field errors of an account's data under its bank's rules (empty when valid), with what the
 * bank's layout needs of them; whether the bank offers the layout at all is `offersLayout` (422).
 */
export function accountProblems(a: AccountData, layout: CnabLayout): { path: string; message: string }[] {
  const rule = BANKS[a.bankCode];
  const problems: { path: string; message: string }[] = [];
  if (!rule) return [{ path: 'bankCode', message: `bank ${a.bankCode} is not supported (${BANK_CODES.join(', ')})` }];
  if (!/^\d{1,4}$/.test(a.agency)) problems.push({ path: 'agency', message: 'agência: up to 4 digits' });
  if (!/^\d+$/.test(a.account) || a.account.length > rule.accountLength)
    problems.push({ path: 'account', message: `conta: up to ${rule.accountLength} digits for ${rule.name}` });
  if (problems.length) return problems;
  if (rule.agencyDigit) {
    const expected = rule.agencyDigit(a.agency);
    if ((a.agencyDigit ?? '').toUpperCase() !== expected)
      problems.push({ path: 'agencyDigit', message: `the agência's check digit is ${expected} for ${rule.name}` });
  } else if (a.agencyDigit) {
    problems.push({ path: 'agencyDigit', message: `${rule.name} agências have no check digit` });
  }
  const accountDv = rule.accountDigit(a.agency, a.account);
  if ((a.accountDigit ?? '').toUpperCase() !== accountDv)
    problems.push({ path: 'accountDigit', message: `the conta's check digit is ${accountDv} for ${rule.name}` });
  if (!rule.carteiras.test(a.carteira)) problems.push({ path: 'carteira', message: `carteira for ${rule.name}: ${rule.carteiraHint}` });
  if (rule.beneficiaryCodeLength === null) {
    if (a.beneficiaryCode !== null && !/^\d{1,20}$/.test(a.beneficiaryCode))
      problems.push({ path: 'beneficiaryCode', message: 'código da empresa: up to 20 digits' });
  } else if (!a.beneficiaryCode || !new RegExp(`^\\d{${rule.beneficiaryCodeLength}}$`).test(a.beneficiaryCode)) {
    problems.push({
      path: 'beneficiaryCode',
      message: `convênio / código do beneficiário: ${rule.beneficiaryCodeLength} digits for ${rule.name}`,
    });
  }
  if (layout === 'CNAB400' && offersLayout(a.bankCode, layout) && rule.cnab400?.needsBeneficiaryCode && !a.beneficiaryCode)
    problems.push({ path: 'beneficiaryCode', message: rule.cnab400.needsBeneficiaryCode });
  if (a.carteiraVariation && !rule.cnab400?.needsCarteiraVariation)
    problems.push({ path: 'carteiraVariation', message: `${rule.name} has no variação da carteira (Banco do Brasil only)` });
  else if (layout === 'CNAB400' && offersLayout(a.bankCode, layout) && rule.cnab400?.needsCarteiraVariation && !a.carteiraVariation)
    problems.push({ path: 'carteiraVariation', message: rule.cnab400.needsCarteiraVariation });
  if (a.transmissionCode && !rule.cnab400?.takesTransmissionCode)
    problems.push({ path: 'transmissionCode', message: `${rule.name} has no código de transmissão (Santander only)` });
  return problems;
}

/** Whether the bank publishes the layout for collection (a valid layout the bank does not take is a business rule, 422). */
export const offersLayout = (bankCode: BankCode, layout: CnabLayout): boolean => BANKS[bankCode].layouts.includes(layout);
