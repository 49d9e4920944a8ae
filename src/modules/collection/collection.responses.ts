import Joi from 'joi';
import { hashid, named, obj, oneOf, percent, timestamp } from '../../core/http/response-schema';
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
