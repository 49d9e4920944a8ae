import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../../core/audit/audit.service';
import type { ActorContext } from '../../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../../core/db/transaction';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../../core/errors';
import { encodeId } from '../../../core/hashids';
import { publishEvent } from '../../../core/outbox/outbox.service';
import { Filial } from '../../tenancy';
import { SefazCertificate } from '../entities/sefaz-certificate.entity';
import { ParsedCertificate, parsePfx, PfxError } from './pfx';
import { open, seal } from './sealed-box';

export interface CertificateUpload {
  /** The .pfx file, base64. */
  pfx: string;
  password: string;
}

/** What a call to the authority needs: TLS client credentials and the XML signer's key. */
export interface Credentials {
  keyPem: string;
  certPem: string;
  chainPems: string[];
  fingerprint: string;
}

const binding = (companyId: number, filialId: number) => `sefaz-certificate:${companyId}:${filialId}`;

export async function loadFilial(companyId: number, filialId: number, em: EntityManager): Promise<Filial> {
  const filial = await em.findOneBy(Filial, { id: filialId, companyId });
  if (!filial) throw new NotFoundError('Filial');
  return filial;
}

/**
 * The rules a certificate must meet before anything is sent with it: in force, and the holder's CNPJ
 * root (8 digits) equal to the filial's — the authority refuses others with 593 anyway.
 */
function assertUsable(cert: { cnpj: string | null; validFrom: Date; validTo: Date }, filial: Filial, now = new Date()): void {
  if (cert.validTo.getTime() <= now.getTime()) {
    throw new BusinessRuleError('CERTIFICATE_EXPIRED', `The certificate expired on ${cert.validTo.toISOString()}`, { validTo: cert.validTo.toISOString() });
  }
  if (cert.validFrom.getTime() > now.getTime()) {
    throw new BusinessRuleError('CERTIFICATE_NOT_YET_VALID', `The certificate is valid from ${cert.validFrom.toISOString()}`, { validFrom: cert.validFrom.toISOString() });
  }
  if (!cert.cnpj) throw new BusinessRuleError('CERTIFICATE_WITHOUT_CNPJ', 'The certificate does not state a CNPJ (an e-CNPJ A1 certificate is required)');
  if (filial.cnpj.length !== 14 || cert.cnpj.slice(0, 8) !== filial.cnpj.slice(0, 8)) {
    throw new BusinessRuleError('CERTIFICATE_CNPJ_MISMATCH', `The certificate's CNPJ root ${cert.cnpj.slice(0, 8)} differs from the filial's ${filial.cnpj.slice(0, 8)}`, {
      certificateCnpj: cert.cnpj,
      filialCnpj: filial.cnpj,
    });
  }
}

function readUpload(upload: CertificateUpload): ParsedCertificate {
  try {
    return parsePfx(Buffer.from(upload.pfx, 'base64'), upload.password);
  } catch (err) {
    if (!(err instanceof PfxError)) throw err;
    const code = err.failure === 'PASSWORD' ? 'CERTIFICATE_PASSWORD_INVALID' : err.failure === 'NO_KEY' ? 'CERTIFICATE_WITHOUT_KEY' : 'CERTIFICATE_UNREADABLE';
    throw new BusinessRuleError(code, err.message);
  }
}

const visible = (c: Pick<SefazCertificate, 'subject' | 'cnpj' | 'fingerprint' | 'validFrom' | 'validTo'>) => ({
  subject: c.subject,
  cnpj: c.cnpj,
  fingerprint: c.fingerprint,
  validFrom: c.validFrom,
  validTo: c.validTo,
});

/** Uploads or replaces the filial's A1 certificate (checked, then sealed). */
export async function saveCertificate(ctx: ActorContext, filialId: number, upload: CertificateUpload): Promise<SefazCertificate> {
  const filial = await loadFilial(ctx.companyId, filialId, readerOf(ctx));
  const parsed = readUpload(upload);
  assertUsable({ cnpj: parsed.cnpj, validFrom: parsed.notBefore, validTo: parsed.notAfter }, filial);
  const sealed = seal(Buffer.from(JSON.stringify({ pfx: upload.pfx, password: upload.password })), binding(ctx.companyId, filialId));
  const fields = {
    subject: parsed.subject.slice(0, 500),
    issuer: parsed.issuer.slice(0, 500),
    cnpj: parsed.cnpj,
    serialNumber: parsed.serialNumber.slice(0, 80),
    fingerprint: parsed.fingerprint,
    validFrom: parsed.notBefore,
    validTo: parsed.notAfter,
    sealed,
    uploadedBy: ctx.actor.slice(0, 100),
  };
  return inTransaction(ctx, async (em) => {
    const current = await em.findOneBy(SefazCertificate, { companyId: ctx.companyId, filialId });
    let saved: SefazCertificate;
    if (current) {
      const result = await em
        .createQueryBuilder()
        .update(SefazCertificate)
        .set({ ...fields, version: () => 'version + 1' })
        .where('id = :id AND company_id = :companyId AND version = :version', { id: current.id, companyId: ctx.companyId, version: current.version })
        .execute();
      if (!result.affected) throw new ConflictError('CONCURRENT_UPDATE', 'The certificate was replaced concurrently; retry');
      saved = await em.findOneByOrFail(SefazCertificate, { id: current.id });
    } else {
      saved = await em.save(em.create(SefazCertificate, { companyId: ctx.companyId, filialId, ...fields }));
    }
    await recordAudit(em, ctx, {
      entity: 'sefaz-certificate',
      entityId: saved.id,
      action: current ? 'REPLACED' : 'CREATED',
      changes: diff(current ? visible(current) : {}, visible(saved)),
    });
    await publishEvent(em, ctx, {
      type: 'nfe.certificate.updated',
      filialId,
      aggregateType: 'sefaz-certificate',
      aggregateId: saved.id,
      data: { filialId: encodeId('filial', filialId), cnpj: saved.cnpj, validTo: saved.validTo.toISOString(), fingerprint: saved.fingerprint },
    });
    return saved;
  });
}

export async function getCertificate(companyId: number, filialId: number): Promise<SefazCertificate> {
  const cert = await readerOf(NO_UNIT).findOneBy(SefazCertificate, { companyId, filialId });
  if (!cert) throw new NotFoundError('Certificate', 'CERTIFICATE_NOT_FOUND');
  return cert;
}

/**
 * The filial's credentials for one call, after the rules: no certificate, an expired one or one of
 * another CNPJ root → 422 before anything goes out.
 */
export async function loadCredentials(filial: Filial): Promise<Credentials> {
  const cert = await readerOf(NO_UNIT).findOneBy(SefazCertificate, { companyId: filial.companyId, filialId: filial.id });
  if (!cert) throw new BusinessRuleError('CERTIFICATE_REQUIRED', 'The filial has no A1 certificate; upload one first');
  assertUsable(cert, filial);
  const { pfx, password } = JSON.parse(open(cert.sealed, binding(filial.companyId, filial.id)).toString('utf8')) as CertificateUpload;
  const parsed = parsePfx(Buffer.from(pfx, 'base64'), password);
  return { keyPem: parsed.keyPem, certPem: parsed.certPem, chainPems: parsed.chainPems, fingerprint: parsed.fingerprint };
}
