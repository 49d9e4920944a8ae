import { Joi } from '../../core/http/schema';
import { hashid, named, obj, oneOf, timestamp } from '../../core/http/response-schema';

/** Response bodies of the first-note routes (emission-setup.mapper.ts). */

const AUTHORIZERS = ['AM', 'BA', 'GO', 'MG', 'MS', 'MT', 'PE', 'PR', 'RS', 'SP', 'SVAN', 'SVRS', 'SVC-AN', 'SVC-RS'];
const url = () => Joi.string().example('https://homologacao.nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx');
const urls = () =>
  named(
    'AuthorityServiceUrls',
    obj({
      AUTORIZACAO: url().optional(),
      RET_AUTORIZACAO: url().optional(),
      CONSULTA_PROTOCOLO: url().optional(),
      STATUS_SERVICO: url().optional(),
      INUTILIZACAO: url().optional(),
      RECEPCAO_EVENTO: url().optional(),
    }),
  );

const UrlOverride = named(
  'AuthorityUrlOverride',
  obj({
    environment: oneOf('PRODUCTION', 'HOMOLOGATION'),
    target: oneOf('AUTHORIZER', 'CONTINGENCY'),
    service: oneOf('AUTORIZACAO', 'RET_AUTORIZACAO', 'CONSULTA_PROTOCOLO', 'STATUS_SERVICO', 'INUTILIZACAO', 'RECEPCAO_EVENTO'),
    url: url(),
  }),
);

const contingencyFields = {
  mode: oneOf('SVC-AN', 'SVC-RS'),
  since: timestamp(),
  reason: Joi.string().example('SEFAZ autorizadora fora do ar desde as 10h'),
};
const OpenContingency = named('OpenContingency', obj(contingencyFields));

export const FilialContingency = named('FilialContingency', obj({ filialId: hashid('filial'), ...contingencyFields }));

export const AuthoritySettings = named(
  'AuthoritySettings',
  obj({
    filialId: hashid('filial'),
    uf: Joi.string().example('SP'),
    environment: oneOf('PRODUCTION', 'HOMOLOGATION'),
    authorizer: oneOf(...AUTHORIZERS).description('the UF’s NF-e authorizer: its own, SVAN (MA) or SVRS (the other UFs)'),
    contingencyAuthorizer: oneOf('SVC-AN', 'SVC-RS').description('where NF-e go while the authorizer is down (NT 2013.007)'),
    target: obj({
      label: Joi.string().example('SP'),
      simulator: Joi.boolean().description('the filial is attached to the local simulator (its own endpoint)'),
      urls: urls(),
    }),
    contingencyTarget: obj({ label: Joi.string().example('SP via SVC-AN'), urls: urls() }),
    urlOverrides: Joi.array()
      .items(UrlOverride)
      .description('URLs set by hand (PUT …/authority); used while the filial is not attached to the simulator'),
    contingency: obj({
      nfe: oneOf('AUTOMATIC_SVC', 'MANUAL'),
      nfce: oneOf('AUTOMATIC_OFFLINE', 'NONE'),
      open: OpenContingency.allow(null).description('the contingency the filial is in now, automatic or entered by an operator'),
    }),
    series: Joi.array().items(
      named(
        'AuthoritySeries',
        obj({
          model: Joi.number().valid(55, 65),
          series: Joi.number().integer().example(1),
          nextNumber: Joi.number().integer().example(1),
          isDefault: Joi.boolean(),
        }),
      ),
    ),
    nfce: named(
      'AuthorityNfce',
      obj({
        series: Joi.number().integer().example(1),
        qrVersion: Joi.number().valid(2, 3),
        cscId: Joi.number().integer().allow(null).example(1),
        cscTokenSet: Joi.boolean(),
      }),
    ).allow(null),
  }),
);

export const Readiness = named(
  'FilialReadiness',
  obj({
    filialId: hashid('filial'),
    environment: oneOf('PRODUCTION', 'HOMOLOGATION'),
    ready: obj({ nfe: Joi.boolean(), nfce: Joi.boolean() }),
    missing: Joi.array().items(Joi.string()).description('codes of the MISSING checks').example(['CERTIFICATE', 'CSC']),
    checks: Joi.array().items(
      named(
        'ReadinessCheck',
        obj({
          code: oneOf(
            'CERTIFICATE',
            'STATE_REGISTRATION',
            'ADDRESS',
            'CRT',
            'SERIES',
            'ENDPOINT',
            'CONTINGENCY',
            'CSC',
            'TAX_RULES',
            'APPROXIMATE_TAXES',
          ),
          status: oneOf('OK', 'MISSING', 'WARNING'),
          message: Joi.string().example(
            'The filial has no A1 certificate: every document is signed with it and it authenticates the calls to the authority',
          ),
          fix: Joi.string().allow(null).example('PUT /api/entry-document/nfe/certificado/jR3kq9Vd'),
          documents: Joi.array().items(oneOf('NFE', 'NFCE')),
        }),
      ),
    ),
  }),
);
