import Joi from 'joi';
import { hashid, money, named, obj, percent } from '../../core/http/response-schema';

/* Response bodies of /fiscal-books (mirror fiscal-books.mapper.ts). */

const figures = {
  operationValue: money().description('VL_OPR: goods − discount + freight, insurance, other charges + ST + IPI'),
  icmsBase: money(),
  icms: money().description('ICMS debited (exits) or credited (entries)'),
  stBase: money(),
  st: money().description('ICMS-ST'),
  ipi: money(),
  difal: money().description('DIFAL to the destination UF (EC 87/2015, ICMSUFDest)'),
  fcp: money().description('FCP of the operation and of the DIFAL'),
  pis: money(),
  cofins: money(),
};

const BookRow = named(
  'FiscalBookRow',
  obj({
    cfop: Joi.string().example('5102'),
    cst: Joi.string().example('000').description('CST_ICMS: origin + Tabela B'),
    rate: percent().example(18),
    documents: Joi.number().integer().example(12),
    ...figures,
  }),
);

const Totals = named('FiscalBookTotals', obj(figures));

export const FiscalBookSummary = named(
  'FiscalBookSummary',
  obj({
    filialId: hashid('filial'),
    period: Joi.string().example('2026-11'),
    entries: Joi.array().items(BookRow).description('entradas by CFOP/CST/rate'),
    exits: Joi.array().items(BookRow).description('saídas by CFOP/CST/rate'),
    totals: obj({ entries: Totals, exits: Totals }),
  }),
);

export const FiscalBookCsv = Joi.string().description('direction,cfop,cst,rate,documents,operationValue,…,cofins (CRLF)');
