import { encodeId } from '../../core/hashids';
import type { SefazCertificate } from './entities/sefaz-certificate.entity';

/** Response shape of a filial's certificate (its routes, the DF-e state, the emission setup). A certificate's sealed content never leaves. */

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);
const DAY = 86_400_000;

export function toCertificateDto(c: SefazCertificate, now = new Date()) {
  return {
    filialId: encodeId('filial', c.filialId),
    subject: c.subject,
    issuer: c.issuer,
    cnpj: c.cnpj,
    serialNumber: c.serialNumber,
    fingerprint: c.fingerprint,
    validFrom: iso(c.validFrom),
    validTo: iso(c.validTo),
    expired: new Date(c.validTo).getTime() <= now.getTime(),
    daysToExpiry: Math.floor((new Date(c.validTo).getTime() - now.getTime()) / DAY),
    trust: c.trust,
    trustWarning: c.trustWarning,
    uploadedBy: c.uploadedBy,
    version: c.version,
    updatedAt: iso(c.updatedAt),
  };
}
