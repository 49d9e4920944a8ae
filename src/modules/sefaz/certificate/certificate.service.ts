import { EntityManager } from 'typeorm';
import { diff, recordAudit } from '../../../core/audit/audit.service';
import type { ActorContext } from '../../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../../core/db/transaction';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../../core/errors';
import { encodeId } from '../../../core/hashids';
import { publishEvent } from '../../../core/outbox/outbox.service';
import type { Credentials } from '../../authority';
import { evaluateSigner } from '../../fiscal-xml';
import type { SignerReason } from '../../fiscal-xml';
import { Filial } from '../../tenancy';
import { CertificateTrust, SefazCertificate } from '../entities/sefaz-certificate.entity';
import { ParsedCertificate, parsePfx, PfxError } from './pfx';
import { open, seal } from './sealed-box';

export interface CertificateUpload {
  /** The .pfx file, base64. */
  pfx: string;
  password: string;
}

/** What a call to the authority needs: TLS client credentials and the XML signer's key. */
export type { Credentials };

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
    throw new BusinessRuleError('CERTIFICATE_EXPIRED', `The certificate expired on ${cert.validTo.toISOString()}`, {
      validTo: cert.validTo.toISOString(),
    });
  }
  if (cert.validFrom.getTime() > now.getTime()) {
    throw new BusinessRuleError('CERTIFICATE_NOT_YET_VALID', `The certificate is valid from ${cert.validFrom.toISOString()}`, {
      validFrom: cert.validFrom.toISOString(),
    });
  }
  if (!cert.cnpj)
    throw new BusinessRuleError('CERTIFICATE_WITHOUT_CNPJ', 'The certificate does not state a CNPJ (an e-CNPJ A1 certificate is required)');
  if (filial.cnpj.length !== 14 || cert.cnpj.slice(0, 8) !== filial.cnpj.slice(0, 8)) {
    throw new BusinessRuleError(
      'CERTIFICATE_CNPJ_MISMATCH',
      `The certificate's CNPJ root ${cert.cnpj.slice(0, 8)} differs from the filial's ${filial.cnpj.slice(0, 8)}`,
      {
        certificateCnpj: cert.cnpj,
        filialCnpj: filial.cnpj,
      },
    );
  }
}

/** One problem code per way a chain fails (the upload's 422 in produção, the warning's code in homologação). */
const CHAIN_PROBLEMS: Partial<Record<SignerReason, { code: string; message: string }>> = {
  SELF_SIGNED: {
    code: 'CERTIFICATE_SELF_SIGNED',
    message: 'The certificate is self-signed: an A1 certificate must be issued by an ICP-Brasil authority',
  },
  UNTRUSTED_ROOT: {
    code: 'CERTIFICATE_UNTRUSTED_ROOT',
    message: 'The certificate chains to a root that is not an installed ICP-Brasil root (NFE_TRUSTED_ROOTS)',
  },
  CHAIN_BROKEN: {
    code: 'CERTIFICATE_CHAIN_BROKEN',
    message: "A link of the certificate's chain does not verify (an issuer by that name did not sign it)",
  },
  CHAIN_NOT_VERIFIABLE: {
    code: 'CERTIFICATE_CHAIN_NOT_VERIFIABLE',
    message:
      "The certificate's issuing AC is not among the installed ICP-Brasil certificates (NFE_TRUSTED_ROOTS): install the AC's chain, or include it in the .pfx",
  },
  NO_TRUSTED_ROOTS: {
    code: 'CERTIFICATE_NO_TRUSTED_ROOTS',
    message: 'No ICP-Brasil roots are installed (NFE_TRUSTED_ROOTS), so the certificate cannot be verified',
  },
};

export interface ChainCheck {
  trust: CertificateTrust;
  /** The problem when not TRUSTED: its code and message. */
  problem: { code: string; message: string } | null;
}

const derBase64 = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** The chain of the uploaded certificate against the installed roots (CNPJ and dates are assertUsable's). */
export function checkChain(parsed: Pick<ParsedCertificate, 'certPem' | 'chainPems'>): ChainCheck {
  const verdict = evaluateSigner({
    certificates: [parsed.certPem, ...parsed.chainPems].map(derBase64),
    issuerDocument: null,
    signedAt: null,
    avulsa: true,
  });
  if (verdict.verdict === 'TRUSTED') return { trust: 'TRUSTED', problem: null };
  const reason = verdict.reasons.find((r) => CHAIN_PROBLEMS[r]);
  return {
    trust: verdict.verdict,
    problem: (reason && CHAIN_PROBLEMS[reason]) ?? { code: 'CERTIFICATE_UNTRUSTED', message: verdict.message },
  };
}

/**
 * Produção takes only a certificate chained to an installed ICP-Brasil root; homologação also takes a
 * self-signed or foreign one, keeping the warning on the certificate (docs/decisions/first-note-setup.md).
 */
function assertTrusted(chain: ChainCheck, filial: Filial): void {
  if (chain.problem && filial.nfeEnvironment === 'PRODUCTION') {
    throw new BusinessRuleError(chain.problem.code, `${chain.problem.message}. A PRODUCTION filial needs an ICP-Brasil certificate`, {
      trust: chain.trust,
      nfeEnvironment: filial.nfeEnvironment,
    });
  }
}

function readUpload(upload: CertificateUpload): ParsedCertificate {
  try {
    return parsePfx(Buffer.from(upload.pfx, 'base64'), upload.password);
  } catch (err) {
    if (!(err instanceof PfxError)) throw err;
    const code =
      err.failure === 'PASSWORD'
        ? 'CERTIFICATE_PASSWORD_INVALID'
        : err.failure === 'NO_KEY'
          ? 'CERTIFICATE_WITHOUT_KEY'
          : 'CERTIFICATE_UNREADABLE';
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
  const chain = checkChain(parsed);
  assertTrusted(chain, filial);
  const sealed = seal(Buffer.from(JSON.stringify({ pfx: upload.pfx, password: upload.password })), binding(ctx.companyId, filialId));
  const fields = {
    subject: parsed.subject.slice(0, 500),
    issuer: parsed.issuer.slice(0, 500),
    cnpj: parsed.cnpj,
    serialNumber: parsed.serialNumber.slice(0, 80),
    fingerprint: parsed.fingerprint,
    validFrom: parsed.notBefore,
    validTo: parsed.notAfter,
    trust: chain.trust,
    trustWarning: chain.problem ? `${chain.problem.code}: ${chain.problem.message}`.slice(0, 300) : null,
    expiryAlertedDays: null,
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
        .where('id = :id AND company_id = :companyId AND version = :version', {
          id: current.id,
          companyId: ctx.companyId,
          version: current.version,
        })
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
      data: {
        filialId: encodeId('filial', filialId),
        cnpj: saved.cnpj,
        validTo: saved.validTo.toISOString(),
        fingerprint: saved.fingerprint,
      },
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
  if (filial.nfeEnvironment === 'PRODUCTION' && cert.trust !== null && cert.trust !== 'TRUSTED') {
    throw new BusinessRuleError(
      'CERTIFICATE_UNTRUSTED',
      `The filial is in PRODUCTION and its certificate is not an ICP-Brasil one (${cert.trustWarning ?? cert.trust}); upload an ICP-Brasil A1 certificate`,
    );
  }
  const { pfx, password } = JSON.parse(open(cert.sealed, binding(filial.companyId, filial.id)).toString('utf8')) as CertificateUpload;
  const parsed = parsePfx(Buffer.from(pfx, 'base64'), password);
  return { keyPem: parsed.keyPem, certPem: parsed.certPem, chainPems: parsed.chainPems, fingerprint: parsed.fingerprint };
}
