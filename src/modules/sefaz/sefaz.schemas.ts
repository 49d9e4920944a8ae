import { id, Joi } from '../../core/http/schema';
import { typedSchema } from '../../core/http/typed-input';
import type { CertificateUpload } from './certificate/certificate.service';

/* Request schemas of the certificate routes (the DF-e routes' are dfe/dfe.schemas.ts). */

const filialParam = Joi.object({ filialId: id('filial').required() });

type ByFilial = { params: { filialId: number } };

/* Each schema with the type of what it validates (core/http/typed-input.ts). */
export const sefazSchemas = {
  certificateGet: typedSchema<ByFilial>({ params: filialParam }),
  certificatePut: typedSchema<ByFilial & { body: CertificateUpload }>({
    params: filialParam,
    body: Joi.object({
      pfx: Joi.string()
        .base64({ paddingRequired: false })
        .max(200_000)
        .required()
        .description('the A1 certificate file (.pfx / .p12), base64')
        // The first bytes of a PKCS#12 file in base64: Try-it-out with it answers CERTIFICATE_UNREADABLE; paste your own file.
        .example('MIIKpAIBAzCCCl4GCSqGSIb3DQEHAaCCCk8EggpLMIIKRzCCBX8GCSqGSIb3DQEHBqCCBXAwggVsAgEA'),
      password: Joi.string().max(200).allow('').required().description('the certificate password (kept encrypted, never returned)'),
    }),
  }),
};
