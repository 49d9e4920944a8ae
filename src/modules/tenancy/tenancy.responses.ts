import { Joi } from '../../core/http/schema';
import { hashid, named, obj, oneOf, percent, taxDocument, timestamp } from '../../core/http/response-schema';

/** Response bodies of the tenancy and settings routes (tenancy.mapper.ts, tenancy.controller.ts). */
const nfeEnvironment = oneOf('PRODUCTION', 'HOMOLOGATION');

export const Me = named(
  'Me',
  obj({
    user: Joi.string().description('token subject').example('ana.souza'),
    scopes: Joi.array().items(Joi.string().example('sales-order:write')),
    company: obj({ id: hashid('company'), name: Joi.string().example('Comercial Souza Ltda'), cnpj: taxDocument() }),
    filiais: Joi.array().items(
      named(
        'GrantedFilial',
        obj({
          id: hashid('filial'),
          name: Joi.string().example('Loja Centro'),
          cnpj: taxDocument(),
          uf: Joi.string().example('SP'),
          nfeEnvironment,
          allowNegativeStock: Joi.boolean(),
        }),
      ),
    ),
    tokenExpiresAt: timestamp().allow(null),
  }),
);

export const FilialSettings = named(
  'FilialSettings',
  obj({
    filialId: hashid('filial'),
    name: Joi.string().example('Loja Centro'),
    cnpj: taxDocument(),
    uf: Joi.string().example('SP'),
    nfeEnvironment,
    autoCiencia: Joi.boolean().description('send ciência da operação automatically on new NF-e summaries'),
    allowUnverifiedUploads: Joi.boolean().description(
      'homologation only: uploaded NF-e XML may be confirmed without consulting its key at the authority',
    ),
    taxRegime: oneOf('SIMPLES_NACIONAL', 'LUCRO_PRESUMIDO', 'LUCRO_REAL'),
    allowNegativeStock: Joi.boolean(),
    dfeSyncEnabled: Joi.boolean(),
    dfeSyncIntervalMinutes: Joi.number().integer().example(60),
    stateRegistration: Joi.string().allow(null).example('110042490114'),
    tradeName: Joi.string().allow(null).example('Loja Centro'),
    address: named(
      'FilialAddress',
      obj({
        street: Joi.string().allow(null).example('Avenida Paulista'),
        number: Joi.string().allow(null).example('1000'),
        complement: Joi.string().allow(null).example('Loja 3'),
        district: Joi.string().allow(null).example('Bela Vista'),
        municipalityCode: Joi.string().example('3550308'),
        municipalityName: Joi.string().allow(null).example('São Paulo'),
        postalCode: Joi.string().allow(null).example('01310100'),
        phone: Joi.string().allow(null).example('1133334444'),
      }),
    ).allow(null),
    cnae: Joi.string().allow(null).example('4751201'),
    crt: Joi.number().valid(1, 2, 3).description('derived: 1 Simples, 2 Simples over the sublimit, 3 regime normal'),
    industrial: Joi.boolean(),
    simplesExcessSublimit: Joi.boolean(),
    simplesCreditRate: percent().allow(null),
    version: Joi.number().integer().example(3),
    updatedAt: timestamp(),
  }),
);

export const CompanySettings = named(
  'CompanySettings',
  obj({
    companyId: hashid('company'),
    name: Joi.string().example('Comercial Souza Ltda'),
    cnpj: taxDocument(),
    purchaseQuantityTolerancePct: percent(),
    purchasePriceTolerancePct: percent(),
    purchaseToleranceMode: oneOf('BLOCK', 'WARN'),
    version: Joi.number().integer().example(2),
  }),
);

export const OperatorCompany = named(
  'OperatorCompany',
  obj({
    companyId: hashid('company'),
    name: Joi.string().example('Comercial Souza Ltda'),
    cnpj: taxDocument(),
    active: Joi.boolean(),
    filiais: Joi.array().items(FilialSettings),
  }),
);
