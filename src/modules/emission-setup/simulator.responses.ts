import { Joi } from '../../core/http/schema';
import { hashid, named, obj } from '../../core/http/response-schema';
import { SefazCertificateResponse } from '../sefaz';

export const SimulatorAttachment = named(
  'SimulatorAttachment',
  obj({
    filialId: hashid('filial'),
    url: Joi.string().example('https://127.0.0.1:8443'),
    label: Joi.string().example('local simulator'),
    certificateIssued: Joi.boolean().description('the simulator issued the filial a new A1 certificate'),
    certificate: SefazCertificateResponse.allow(null),
  }),
);
