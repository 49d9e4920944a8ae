import { decimal, id, Joi, version } from '../../core/http/schema';
import { ValidationError } from '../../core/errors';
import { typedSchema } from '../../core/http/typed-input';
import type { CompanySettingsPatch, FilialSettingsPatch } from './settings.service';
import { TAX_REGIMES } from './entities/filial.entity';

/*
 * The settings a filial and its company carry (SPEC §1), as the API and the operators' CLI
 * (`tenant:create`) accept them: one set of fields, so both validate the same way.
 */

export const MIN_DFE_SYNC_MINUTES = 60;
export const MAX_DFE_SYNC_MINUTES = 7 * 24 * 60;

export const filialSettingsFields = {
  nfeEnvironment: Joi.string()
    .valid('PRODUCTION', 'HOMOLOGATION')
    .description('tpAmb of the invoices this filial receives and of its SEFAZ calls'),
  autoCiencia: Joi.boolean().description('send CIENCIA before downloading a summary’s full XML'),
  allowUnverifiedUploads: Joi.boolean().description(
    'homologation filials only: an NF-e XML uploaded by hand may be confirmed without its key consulted at the authority (refused with 422 for PRODUCTION)',
  ),
  taxRegime: Joi.string().valid(...TAX_REGIMES),
  allowNegativeStock: Joi.boolean(),
  dfeSyncEnabled: Joi.boolean().description('scheduled DF-e sync of this filial'),
  dfeSyncIntervalMinutes: Joi.number()
    .integer()
    .min(MIN_DFE_SYNC_MINUTES)
    .max(MAX_DFE_SYNC_MINUTES)
    .description('minutes between scheduled syncs (at least 60)'),
  // Fiscal data for issuing documents (SPEC §1, §12): the CRT is derived from taxRegime and simplesExcessSublimit.
  stateRegistration: Joi.string().trim().max(18).allow(null).description('IE, checked against the filial UF'),
  tradeName: Joi.string().trim().max(60).allow(null).description('xFant'),
  address: Joi.object({
    street: Joi.string().trim().min(1).max(60).required(),
    number: Joi.string().trim().min(1).max(60).required(),
    complement: Joi.string().trim().max(60).allow(null),
    district: Joi.string().trim().min(1).max(60).required(),
    municipalityCode: Joi.string()
      .pattern(/^\d{7}$/)
      .message('{{#label}} must be the 7-digit IBGE code')
      .required(),
    municipalityName: Joi.string().trim().min(1).max(60).required(),
    postalCode: Joi.string()
      .pattern(/^\d{8}$/)
      .allow(null),
    phone: Joi.string()
      .pattern(/^\d{6,14}$/)
      .allow(null),
  }).description('the filial address (its UF is the filial’s)'),
  cnae: Joi.string()
    .pattern(/^\d{7}$/)
    .message('{{#label}} must be 7 digits')
    .allow(null),
  industrial: Joi.boolean().description('manufactures: documents carry IPI'),
  simplesExcessSublimit: Joi.boolean().description('Simples Nacional over the sublimit (CRT 2)'),
  simplesCreditRate: decimal('percent', { min: 0, max: 100 }).allow(null).description('pCredSN of CSOSN 101 sales to contributors'),
};

export const companySettingsFields = {
  purchaseQuantityTolerancePct: decimal('percent', { min: 0, max: 100 }).description(
    'received quantity may exceed the ordered by this percentage',
  ),
  purchasePriceTolerancePct: decimal('percent', { min: 0, max: 100 }).description(
    "invoice unit price may exceed the order's by this percentage",
  ),
  purchaseToleranceMode: Joi.string().valid('BLOCK', 'WARN').description('divergences beyond tolerance block confirmation, or only warn'),
};

const byFilial = { params: Joi.object({ filialId: id('filial').required() }) };

type ByFilial = { params: { filialId: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const settingsSchemas = {
  filial: typedSchema<ByFilial>(byFilial),
  patchFilial: typedSchema<ByFilial & { body: FilialSettingsPatch & { version: number } }>({
    ...byFilial,
    body: Joi.object({ version: version(), ...filialSettingsFields }).min(2),
  }),
  patchCompany: typedSchema<{ body: CompanySettingsPatch & { version: number } }>({
    body: Joi.object({ version: version(), ...companySettingsFields }).min(2),
  }),
};

/** Validates settings given outside HTTP (the CLI) with the API's fields; errors name the options. */
export function validateSettings<T>(kind: 'filial' | 'company', values: Record<string, unknown>, label: string): T {
  const schema = kind === 'filial' ? Joi.object(filialSettingsFields) : Joi.object(companySettingsFields);
  const result = schema.validate(values, { abortEarly: false, convert: true });
  const error = result.error;
  if (error)
    throw new ValidationError(
      `${label}: ${error.details.map((d) => d.message).join('; ')}`,
      error.details.map((d) => ({ path: d.path.join('.'), message: d.message })),
    );
  return result.value as T;
}
