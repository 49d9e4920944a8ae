import Joi from 'joi';
import { date, hashid, money, named, obj, oneOf, percent, timestamp } from '../../core/http/response-schema';
import { INSTRUCTION_KINDS } from './entities/boleto-instruction.entity';
import { BOLETO_STATUSES } from './entities/boleto.entity';
import { BANK_CODES, CNAB_LAYOUTS } from './banks/banks';

/* Response bodies of /collection (mirrors collection.mapper.ts). */

export const BankAccount = named(
  'BankAccount',
  obj({
    id: hashid('bank-account'),
    filialId: hashid('filial'),
    name: Joi.string().example('Itaú cobrança'),
    bankCode: oneOf(...BANK_CODES),
    bankName: Joi.string().example('Itaú Unibanco'),
    agency: Joi.string().example('0057'),
    agencyDigit: Joi.string().allow(null).example(null),
    account: Joi.string().example('12345'),
    accountDigit: Joi.string().example('7'),
    carteira: Joi.string().example('109'),
    beneficiaryCode: Joi.string().allow(null).example(null),
    carteiraVariation: Joi.string().allow(null).example(null).description("Banco do Brasil's variação da carteira (3 digits)"),
    transmissionCode: Joi.string().allow(null).example(null).description("Santander's código de transmissão (20 digits; null: derived)"),
    layout: oneOf(...CNAB_LAYOUTS),
    paymentMethodCode: Joi.string().example('BOLETO'),
    finePercent: percent(),
    interestPerDayPercent: percent(),
    discountPercent: percent(),
    discountDays: Joi.number().integer().example(0),
    instructions: Joi.array().items(Joi.string().example('Não receber após 30 dias do vencimento')),
    protestDays: Joi.number().integer().allow(null).example(null),
    writeOffDays: Joi.number().integer().allow(null).example(60),
    pixKey: Joi.string().allow(null).example('45723174000110'),
    pspCode: Joi.string().allow(null).example(null),
    nextNossoNumero: Joi.number().integer().example(1).description('the sequence the next boleto takes'),
    nextRemittanceNumber: Joi.number().integer().example(1).description('the number of the next remessa file'),
    active: Joi.boolean(),
    version: Joi.number().integer().example(1),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const BankAccountList = named('BankAccountList', obj({ data: Joi.array().items(BankAccount) }));

export const Boleto = named(
  'Boleto',
  obj({
    id: hashid('boleto'),
    receivableId: hashid('receivable'),
    bankAccountId: hashid('bank-account'),
    bankCode: oneOf(...BANK_CODES),
    nossoNumero: Joi.string().example('109/00000001-8').description("as printed, with the bank's check digit"),
    documentNumber: Joi.string().example('1042/1'),
    amount: money(),
    issueDate: date(),
    dueDate: date(),
    barcode: Joi.string().example('34191000000000000001090000000189005712345000').description('44 digits'),
    digitableLine: Joi.string().example('34191090080000018900057123450007100000000000').description('47 digits (linha digitável)'),
    finePercent: percent(),
    interestPerDayPercent: percent(),
    discountAmount: money(),
    discountDate: date().allow(null),
    status: oneOf(...BOLETO_STATUSES),
    refusalReason: Joi.string().allow(null).example(null),
    reviewReason: Joi.string()
      .allow(null)
      .example(null)
      .description('set when a bank return needs a person (payment after write-off, above the balance)'),
    paidAmount: money().description('what the bank reported paid, interest and fine included'),
    registeredAt: timestamp().allow(null),
    pendingInstructions: Joi.array()
      .items(obj({ kind: oneOf(...INSTRUCTION_KINDS), dueDate: date().allow(null), amount: money().allow(null) }))
      .description('waiting for the next remessa'),
    pdfUrl: Joi.string().example('/api/collection/boletos/k5Qb9Zr2/pdf'),
    version: Joi.number().integer().example(1),
    createdAt: timestamp(),
    updatedAt: timestamp(),
  }),
);

export const BoletoList = named('BoletoList', obj({ data: Joi.array().items(Boleto).description('newest first') }));

export const Remittance = named(
  'Remittance',
  obj({
    id: hashid('remittance'),
    bankAccountId: hashid('bank-account'),
    fileNumber: Joi.number().integer().example(12).description('número sequencial do arquivo (NSA)'),
    layout: oneOf(...CNAB_LAYOUTS),
    fileName: Joi.string().example('REM341000012.REM'),
    recordCount: Joi.number().integer().example(8),
    instructionCount: Joi.number().integer().example(2),
    totalAmount: money().description('sum of the values of the titles it registers'),
    downloadUrl: Joi.string().example('/api/collection/remittances/k5Qb9Zr2/file'),
    createdBy: Joi.string().example('ana.souza'),
    createdAt: timestamp(),
  }),
);

const OUTCOMES = ['APPLIED', 'REFUSED', 'FLAGGED', 'UNKNOWN', 'IGNORED', 'DUPLICATE'];

export const ReturnReport = named(
  'BankReturnReport',
  obj({
    id: hashid('bank-return'),
    bankAccountId: hashid('bank-account'),
    fileNumber: Joi.number().integer().allow(null).example(7),
    summary: obj(Object.fromEntries(OUTCOMES.map((o) => [o, Joi.number().integer().example(0)]))),
    occurrences: Joi.array().items(
      obj({
        line: Joi.number().integer().example(3),
        nossoNumero: Joi.string().example('00000001'),
        code: Joi.string().example('06'),
        description: Joi.string().example('liquidação'),
        occurrenceDate: date().allow(null),
        paidAmount: money(),
        outcome: oneOf(...OUTCOMES),
        reason: Joi.string().allow(null).example(null),
        boletoId: hashid('boleto').allow(null),
        receiptId: hashid('receivable-receipt').allow(null),
      }),
    ),
    createdAt: timestamp(),
  }),
);
