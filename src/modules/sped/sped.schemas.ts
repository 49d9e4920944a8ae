import type { Dec } from '../../core/decimal';
import { decimal, document, id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import { periodSchema } from '../fiscal-books';
import type { Accountant } from './efd-builder';

/* Request schemas of /sped/efd-icms-ipi. */

const byId = Joi.object({ id: id('sped-file').required() });

const accountant = Joi.object({
  name: Joi.string().trim().max(100).required().example('Carla Menezes Contabilidade'),
  cpf: document('cpf').required(),
  crc: Joi.string().trim().max(15).required().example('1SP123456O5'),
  cnpj: document('cnpj').allow(null),
  postalCode: Joi.string()
    .pattern(/^\d{8}$/)
    .allow(null),
  street: Joi.string().trim().max(60).allow(null),
  number: Joi.string().trim().max(10).allow(null),
  complement: Joi.string().trim().max(60).allow(null),
  district: Joi.string().trim().max(60).allow(null),
  phone: Joi.string()
    .pattern(/^\d{10,11}$/)
    .allow(null),
  email: Joi.string().email().max(100).allow(null),
  municipalityCode: Joi.string()
    .pattern(/^\d{7}$/)
    .allow(null),
}).description('0100: the accountant who signs the file (required by the layout: without it the file is BLOCKED)');

export const spedSchemas = {
  request: typedSchema<{
    body: {
      filialId: number;
      period: string;
      finalidade: '0' | '1';
      perfil: 'A' | 'B' | 'C';
      inventory?: { countId: number } | null;
      accountant?: Accountant | null;
      revenueCode?: string | null;
      previousCredit?: Dec | null;
    };
  }>({
    body: Joi.object({
      filialId: id('filial').required(),
      period: periodSchema().required(),
      finalidade: Joi.string().valid('0', '1').default('0').description('COD_FIN: 0 original, 1 substitute'),
      perfil: Joi.string().valid('A', 'B', 'C').default('A').description('IND_PERFIL (the UF sets it; A for SP Lucro Real/Presumido)'),
      inventory: Joi.object({ countId: id('inventory-count').required() })
        .allow(null)
        .description('a closed stock count: Bloco H (H005/H010)'),
      accountant,
      revenueCode: Joi.string().trim().max(10).allow(null).description('E116 COD_REC; default 046-2 in SP'),
      previousCredit: decimal('amount', { min: 0 })
        .allow(null)
        .description('VL_SLD_CREDOR_ANT; default the credit the previous month’s file carried'),
    }),
  }),
  byId: typedSchema<{ params: { id: number } }>({ params: byId }),
  trace: typedSchema<{ params: { id: number }; query: { register: string; line: number } }>({
    params: byId,
    query: Joi.object({
      register: Joi.string()
        .pattern(/^[0-9A-Z]\d{3}$/)
        .required()
        .example('C190'),
      line: Joi.number().integer().min(1).required().example(12).description('the line number in the file (1 = 0000)'),
    }),
  }),
};
