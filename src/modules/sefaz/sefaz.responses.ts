import { CNPJ_PATTERN } from '../../core/br-documents';
import { Joi } from '../../core/http/schema';
import { hashid, named, obj, oneOf, timestamp } from '../../core/http/response-schema';

/** Response body of the certificate routes (sefaz.mapper.ts); the DF-e routes' are dfe/dfe.responses.ts. */

const cnpj = () => Joi.string().pattern(CNPJ_PATTERN).example('11222333000181');

export const Certificate = named(
  'SefazCertificate',
  obj({
    filialId: hashid('filial'),
    subject: Joi.string().example('CN=PADARIA PAO QUENTE LTDA:11222333000181, OU=Certificado PJ A1, O=ICP-Brasil, C=BR'),
    issuer: Joi.string().example('CN=AC SOLUTI Multipla v5, O=ICP-Brasil, C=BR'),
    cnpj: cnpj().allow(null),
    serialNumber: Joi.string().example('5a3f0c19e2b7d4a1'),
    fingerprint: Joi.string()
      .description('SHA-256 of the certificate')
      .example('9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'),
    validFrom: timestamp(),
    validTo: timestamp(),
    expired: Joi.boolean(),
    daysToExpiry: Joi.number().integer().example(211),
    trust: oneOf('TRUSTED', 'UNTRUSTED', 'UNVERIFIABLE')
      .allow(null)
      .description(
        'the chain against the installed ICP-Brasil roots at upload (null: uploaded before the check); only TRUSTED serves a PRODUCTION filial',
      ),
    trustWarning: Joi.string()
      .allow(null)
      .description('why a homologação filial’s certificate is not TRUSTED (kept with it)')
      .example('CERTIFICATE_SELF_SIGNED: The certificate is self-signed: an A1 certificate must be issued by an ICP-Brasil authority'),
    uploadedBy: Joi.string().example('ana.souza'),
    version: Joi.number().integer().example(1),
    updatedAt: timestamp(),
  }),
);
