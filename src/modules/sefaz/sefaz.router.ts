import { defineRoutes } from '../../core/http/route';
import * as c from './sefaz.controller';
import { Certificate } from './sefaz.responses';
import { sefazSchemas as s } from './sefaz.schemas';

const READ = 'nfe:read';
/** Uploading the filial's signing certificate is an administrator's act (`nfe:*` or `*` grant it). */
const CERTIFICATE = 'nfe:certificate';
/** The DF-e routes (dfe/dfe.router.ts) share the tag: one section of the tax authority in the docs. */
const TAG = 'NF-e tax authority';

/** An upload's chain problems (refused for a PRODUCTION filial; a homologação filial keeps them as the warning). */
export const CERTIFICATE_CHAIN = [
  'CERTIFICATE_SELF_SIGNED',
  'CERTIFICATE_UNTRUSTED_ROOT',
  'CERTIFICATE_CHAIN_BROKEN',
  'CERTIFICATE_CHAIN_NOT_VERIFIABLE',
  'CERTIFICATE_NO_TRUSTED_ROOTS',
  'CERTIFICATE_UNTRUSTED',
];
/** The filial's certificate (literal paths only; registered before '/entry-document/:id'). */
export const sefazRoutes = defineRoutes([
  {
    method: 'get',
    path: '/entry-document/nfe/certificado/:filialId',
    tag: TAG,
    summary: "The filial's A1 certificate: subject, CNPJ, validity (never its content)",
    scope: READ,
    schema: s.certificateGet,
    responses: { body: Certificate, errors: { 404: ['CERTIFICATE_NOT_FOUND'] } },
    handler: c.certificateGet,
  },
  {
    method: 'put',
    path: '/entry-document/nfe/certificado/:filialId',
    tag: TAG,
    summary:
      "Upload or replace the filial's A1 certificate ({ pfx: base64, password }); stored encrypted. Checked: readable, in force, the filial's CNPJ root, and chained to an installed ICP-Brasil root (NFE_TRUSTED_ROOTS) — a PRODUCTION filial refuses any other; a homologação filial accepts it with `trustWarning`",
    scope: CERTIFICATE,
    schema: s.certificatePut,
    responses: {
      body: Certificate,
      errors: {
        404: ['FILIAL_NOT_FOUND'],
        409: ['DUPLICATE'],
        422: [
          'CERTIFICATE_PASSWORD_INVALID',
          'CERTIFICATE_UNREADABLE',
          'CERTIFICATE_WITHOUT_KEY',
          'CERTIFICATE_WITHOUT_CNPJ',
          'CERTIFICATE_CNPJ_MISMATCH',
          'CERTIFICATE_EXPIRED',
          'CERTIFICATE_NOT_YET_VALID',
          ...CERTIFICATE_CHAIN,
        ],
      },
    },
    handler: c.certificatePut,
  },
]);
