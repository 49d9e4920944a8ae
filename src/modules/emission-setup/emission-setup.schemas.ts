import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { AuthoritySettingsInput, UrlOverride } from '../sefaz';

type ByFilial = { params: { filialId: number } };
const params = Joi.object({ filialId: id('filial').required() });

export const SERVICES = [
  'AUTORIZACAO',
  'RET_AUTORIZACAO',
  'CONSULTA_PROTOCOLO',
  'STATUS_SERVICO',
  'INUTILIZACAO',
  'RECEPCAO_EVENTO',
] as const;

const urlOverride = Joi.object<UrlOverride>({
  environment: Joi.string().valid('PRODUCTION', 'HOMOLOGATION').required().example('HOMOLOGATION'),
  target: Joi.string()
    .valid('AUTHORIZER', 'CONTINGENCY')
    .required()
    .description("AUTHORIZER: the UF's authorizer; CONTINGENCY: its SVC")
    .example('AUTHORIZER'),
  service: Joi.string()
    .valid(...SERVICES)
    .required()
    .example('AUTORIZACAO'),
  url: Joi.string()
    .uri({ scheme: ['https'] })
    .max(300)
    .required()
    .description('the web service’s https address, as the UF publishes it')
    .example('https://homologacao.nfe.fazenda.sp.gov.br/ws/nfeautorizacao4.asmx'),
});

export const setupSchemas = {
  byFilial: typedSchema<ByFilial>({ params }),
  putAuthority: typedSchema<ByFilial & { body: AuthoritySettingsInput }>({
    params,
    body: Joi.object({
      urlOverrides: Joi.array()
        .items(urlOverride)
        .max(24)
        .unique((a: UrlOverride, b: UrlOverride) => a.environment === b.environment && a.target === b.target && a.service === b.service)
        .default([])
        .description(
          'URLs set by hand, replacing the endpoint tables’ for one environment, target and service (the whole list is replaced; [] → the tables everywhere)',
        ),
      contingency: Joi.object({
        nfe: Joi.string()
          .valid('AUTOMATIC_SVC', 'MANUAL')
          .required()
          .description(
            'AUTOMATIC_SVC: an authorizer answering 108/109 sends new NF-e to its SVC until it is back; MANUAL: the NF-e waits SENT until an operator enters contingency (POST …/contingency)',
          )
          .example('AUTOMATIC_SVC'),
        nfce: Joi.string()
          .valid('AUTOMATIC_OFFLINE', 'NONE')
          .required()
          .description(
            'AUTOMATIC_OFFLINE: an unanswered NFC-e is signed again offline (tpEmis 9) and sent by the queue; NONE: it stays SIGNED and the queue sends it again',
          )
          .example('AUTOMATIC_OFFLINE'),
      }).required(),
    }),
  }),
  enterContingency: typedSchema<ByFilial & { body: { reason: string } }>({
    params,
    body: Joi.object({
      reason: Joi.string()
        .trim()
        .min(15)
        .max(256)
        .required()
        .description('xJust of the NF-e issued in contingency (15 to 256 characters)')
        .example('SEFAZ autorizadora fora do ar desde as 10h'),
    }),
  }),
};
