import { decimal, id, isoDate, Joi } from '../../core/http/schema';
import type { InstructionInput, IssueBoletoInput } from './boletos.service';
import { typedSchema } from '../../core/http/typed-input';
import type { BankAccountInput, BankAccountPatch } from './bank-accounts.service';
import { BANK_CODES, CNAB_LAYOUTS } from './banks/banks';
import { writeRetorno240 } from './cnab/cnab240';

/**
 * What a retorno upload carries: the bank's file as text. Here a whole CNAB 240 retorno of Banco do Brasil
 * (file and lot headers and trailers, no occurrence yet) of the account the examples show (agência 1234-3,
 * conta 12345-5, convênio 1234567 of the demo company): a file the parser takes, of the demo's account where it is seeded.
 */
const RETORNO_EXAMPLE = writeRetorno240(
  {
    bankCode: '001',
    agency: '1234',
    agencyDigit: '3',
    account: '12345',
    accountDigit: '5',
    beneficiaryCode: '1234567',
    companyName: 'Mercado Demonstração Ltda',
    companyDocument: '11222333000181',
    carteira: '17',
  },
  1,
  new Date('2026-12-02T12:00:00Z'),
  [],
);

/* Request schemas of /collection, each with the type it validates (core/http/typed-input.ts). */

const byAccount = { params: Joi.object({ id: id('bank-account').required() }) };
const percent = () => decimal('percent', { min: 0, max: 100 });
const days = () => Joi.number().integer().min(0).max(999);

const accountFields = {
  name: Joi.string()
    .trim()
    .min(1)
    .max(60)
    .example('Banco do Brasil cobrança')
    .description('how the account is called in lists (e.g. "Itaú cobrança")'),
  bankCode: Joi.string()
    .valid(...BANK_CODES)
    .example('001')
    .description('001 Banco do Brasil, 341 Itaú, 237 Bradesco, 033 Santander, 104 Caixa, 756 Sicoob'),
  agency: Joi.string()
    .trim()
    .pattern(/^\d{1,4}$/)
    .example('1234')
    .description('agência (cooperativa for Sicoob), without the check digit'),
  agencyDigit: Joi.string()
    .trim()
    .pattern(/^[0-9XxPp]$/)
    .allow(null, '')
    .example('3')
    .description("the agência's check digit (BB, Bradesco); null where the bank has none"),
  account: Joi.string()
    .trim()
    .pattern(/^\d{1,12}$/)
    .example('12345')
    .description('conta without the check digit (Caixa: operação + conta, 11 digits)'),
  accountDigit: Joi.string()
    .trim()
    .pattern(/^[0-9XxPp]$/)
    .example('5')
    .description("the conta's check digit, checked by the bank's rule"),
  carteira: Joi.string()
    .trim()
    .max(3)
    .example('17')
    .description('the collection portfolio (BB 17, Itaú 109, Bradesco 09, Santander 101, Caixa RG, Sicoob 1)'),
  beneficiaryCode: Joi.string()
    .trim()
    .pattern(/^\d{1,20}$/)
    .example('1234567')
    .allow(null, '')
    .description(
      'convênio (BB, 7 digits) / código do beneficiário (Santander 7, Caixa 6, Sicoob 7) / código da empresa (Bradesco, up to 20; required for its CNAB 400)',
    ),
  carteiraVariation: Joi.string()
    .trim()
    .pattern(/^\d{3}$/)
    .allow(null, '')
    .example('019')
    .description(
      "Banco do Brasil's variação da carteira (3 digits, assigned with the convênio, e.g. carteira 17 variação 019); required for a BB account with layout CNAB400",
    ),
  transmissionCode: Joi.string()
    .trim()
    .pattern(/^\d{20}$/)
    .allow(null, '')
    .description(
      "Santander's código de transmissão for its CNAB 400 (20 digits, assigned by the bank); null: agência + código do beneficiário + conta",
    ),
  layout: Joi.string()
    .valid(...CNAB_LAYOUTS)
    .description(
      'the CNAB layout of remessa and retorno files: CNAB240 for every bank; CNAB400 for a bank that offers one (Itaú, Bradesco, Santander, Banco do Brasil, Caixa; otherwise 422 LAYOUT_NOT_OFFERED)',
    ),
  paymentMethodCode: Joi.string()
    .trim()
    .min(1)
    .max(30)
    .description("the tenant's payment method receipts of this account's titles are recorded under (e.g. BOLETO)"),
  finePercent: percent().description('multa after the due date, percent of the value'),
  interestPerDayPercent: decimal('percent', { min: 0, max: 10 }).description(
    'juros de mora per day late, percent of the value (1 % a month ≈ 0.0333)',
  ),
  discountPercent: percent().description('desconto when paid up to discountDays before the due date'),
  discountDays: days(),
  instructions: Joi.array().items(Joi.string().trim().max(80)).max(4).allow(null).description('instruction lines printed on the boleto'),
  protestDays: Joi.number().integer().min(1).max(99).allow(null).description('protest this many days past due (null: no protest)'),
  writeOffDays: Joi.number().integer().min(1).max(999).allow(null).description('the bank writes the title off this many days past due'),
  pixKey: Joi.string().trim().max(77).allow(null, '').description('Pix key of the account (for Pix charges and the bolePix QR)'),
  pspCode: Joi.string().trim().max(30).allow(null, '').description('the PSP adapter serving the key'),
  nextNossoNumero: Joi.number().integer().min(1).description('the next nosso número sequence (only moves forward)'),
};

const required = ['name', 'bankCode', 'agency', 'account', 'accountDigit', 'carteira', 'layout', 'paymentMethodCode'] as const;

const byBoleto = { params: Joi.object({ id: id('boleto').required() }) };
const byReceivable = { params: Joi.object({ id: id('receivable').required() }) };

export const collectionSchemas = {
  createRemittance: typedSchema<{ body: { bankAccountId: number } }>({
    body: Joi.object({
      bankAccountId: id('bank-account').required().description('the account whose pending instructions the file carries'),
    }),
  }),
  remittance: typedSchema<{ params: { id: number } }>({ params: Joi.object({ id: id('remittance').required() }) }),
  uploadReturn: typedSchema<{ body: { bankAccountId: number; content: string } }>({
    body: Joi.object({
      bankAccountId: id('bank-account').required(),
      content: Joi.string()
        .min(1)
        .max(5_000_000)
        .required()
        .example(RETORNO_EXAMPLE)
        .description('the retorno file as the bank sent it (CNAB 240, CRLF or LF lines)'),
    }),
  }),
  issueBoleto: typedSchema<{ params: { id: number }; body: IssueBoletoInput }>({
    ...byReceivable,
    body: Joi.object({
      bankAccountId: id('bank-account').required().description("the filial's collection account that registers it"),
      dueDate: isoDate().description("default the receivable's due date; today or later"),
    }),
  }),
  receivableBoletos: typedSchema<{ params: { id: number } }>(byReceivable),
  boleto: typedSchema<{ params: { id: number } }>(byBoleto),
  instruct: typedSchema<{ params: { id: number }; body: InstructionInput }>({
    ...byBoleto,
    body: Joi.object({
      kind: Joi.string().valid('CHANGE_DUE_DATE', 'CHANGE_AMOUNT', 'WRITE_OFF', 'PROTEST').required(),
      dueDate: isoDate().when('kind', { is: 'CHANGE_DUE_DATE', then: Joi.required(), otherwise: Joi.forbidden() }),
      amount: decimal('amount', { positive: true }).when('kind', { is: 'CHANGE_AMOUNT', then: Joi.required(), otherwise: Joi.forbidden() }),
    }),
  }),
  createAccount: typedSchema<{ body: BankAccountInput }>({
    body: Joi.object({
      filialId: id('filial').required().description('the filial the account collects for (the beneficiary)'),
      ...accountFields,
    }).fork([...required], (s) => s.required()),
  }),
  listAccounts: typedSchema<{ query: { filialId?: number; active?: boolean } }>({
    query: Joi.object({ filialId: id('filial'), active: Joi.boolean() }),
  }),
  account: typedSchema<{ params: { id: number } }>(byAccount),
  updateAccount: typedSchema<{ params: { id: number }; body: BankAccountPatch }>({
    ...byAccount,
    body: Joi.object({ ...accountFields, active: Joi.boolean(), version: Joi.number().integer().min(1).required() }).min(2),
  }),
};
