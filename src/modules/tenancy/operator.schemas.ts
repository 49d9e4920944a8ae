import { document, id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import { UFS } from '../../core/br-fiscal';
import { companySettingsFields, filialSettingsFields } from './settings.schemas';
import type { CompanySettingsPatch } from './settings.service';
import type { FilialInput } from './tenant.service';

/*
 * The operators' routes (POST /operator/companies, …/filiais): a company with its filiais and every
 * fiscal field the documents need, validated by the same fields as PATCH /settings/filial and the CLI.
 */

export const filialCreateFields = {
  name: Joi.string()
    .trim()
    .min(1)
    .max(120)
    .required()
    .description('the filial’s name (xNome is the company’s legal name)')
    .example('Matriz Consolação'),
  cnpj: document().required().description('CNPJ of the filial (or a rural producer’s CPF)').example('45381276000103'),
  uf: Joi.string()
    .uppercase()
    .valid(...UFS)
    .required()
    .description('the filial’s UF: it decides the IE check, the municipality codes and the NF-e authorizer')
    .example('SP'),
  ...filialSettingsFields,
};

const filialBody = Joi.object(filialCreateFields);

export const operatorSchemas = {
  createCompany: typedSchema<{ body: CompanySettingsPatch & { name: string; cnpj: string; filiais: FilialInput[] } }>({
    body: Joi.object({
      name: Joi.string()
        .trim()
        .min(1)
        .max(120)
        .required()
        .description('legal name (razão social): xNome of the documents')
        .example('Mercearia Boa Vista Ltda'),
      cnpj: document('cnpj').required().example('45381276000103'),
      ...companySettingsFields,
      filiais: Joi.array()
        .items(filialBody)
        .min(1)
        .max(50)
        .required()
        .description('its filiais; the first is usually the matriz (same CNPJ)'),
    }),
  }),
  company: typedSchema<{ params: { companyId: number } }>({ params: Joi.object({ companyId: id('company').required() }) }),
  addFilial: typedSchema<{ params: { companyId: number }; body: FilialInput }>({
    params: Joi.object({ companyId: id('company').required() }),
    body: filialBody,
  }),
};
