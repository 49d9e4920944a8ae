import { diff, recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, ConflictError, ForbiddenError, NotFoundError } from '../../core/errors';
import type { EntityManager } from 'typeorm';
import { CompanyLogo } from './entities/company-logo.entity';

/*
 * The company's logo on its DANFE (issue 44): uploaded once per company by a token granting every filial
 * (as the SMTP settings), PNG or JPEG up to 200 KB and 2000 px a side, its format read from its own
 * bytes (the declared type must match). The DANFE of the company's NF-e prints it in the issuer's box.
 */

export const LOGO_MAX_BYTES = 200 * 1024;

function assertAdministrator(ctx: TenantContext): void {
  if (ctx.grantedFiliais !== '*')
    throw new ForbiddenError("The company's logo needs a token granting every filial of the company", 'ALL_FILIAIS_REQUIRED');
}

/** PNG or JPEG by its signature, with its pixel size; null for anything else. */
function imageOf(bytes: Buffer): { type: 'image/png' | 'image/jpeg'; width: number; height: number } | null {
  if (
    bytes.length > 24 &&
    bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) &&
    bytes.toString('latin1', 12, 16) === 'IHDR'
  )
    return { type: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length > 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // The first start-of-frame marker carries the size.
    for (let i = 2; i + 9 < bytes.length;) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1];
      const length = bytes.readUInt16BE(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { type: 'image/jpeg', width: bytes.readUInt16BE(i + 7), height: bytes.readUInt16BE(i + 5) };
      i += 2 + length;
    }
  }
  return null;
}

export async function getLogo(ctx: TenantContext): Promise<CompanyLogo> {
  const found = await readerOf(ctx).findOneBy(CompanyLogo, { companyId: ctx.companyId });
  if (!found) throw new NotFoundError('Logo', 'LOGO_NOT_FOUND');
  return found;
}

export async function saveLogo(
  ctx: TenantContext,
  input: { contentType: 'image/png' | 'image/jpeg'; image: string },
): Promise<CompanyLogo> {
  assertAdministrator(ctx);
  const bytes = Buffer.from(input.image, 'base64');
  if (bytes.length > LOGO_MAX_BYTES)
    throw new BusinessRuleError('LOGO_TOO_LARGE', `The logo has ${bytes.length} bytes; up to ${LOGO_MAX_BYTES} are accepted`);
  const image = imageOf(bytes);
  if (!image || image.type !== input.contentType)
    throw new BusinessRuleError('LOGO_INVALID', `The image is not a ${input.contentType === 'image/png' ? 'PNG' : 'JPEG'} file`);
  if (!image.width || !image.height || image.width > 2000 || image.height > 2000)
    throw new BusinessRuleError('LOGO_INVALID', 'The image must be at most 2000 × 2000 pixels');
  try {
    return await inTransaction(ctx, async (em) => {
      const current = await em.findOneBy(CompanyLogo, { companyId: ctx.companyId });
      if (current)
        await em.update(CompanyLogo, { id: current.id, companyId: ctx.companyId }, { contentType: input.contentType, image: bytes });
      else await em.insert(CompanyLogo, { companyId: ctx.companyId, contentType: input.contentType, image: bytes });
      const saved = await em.findOneByOrFail(CompanyLogo, { companyId: ctx.companyId });
      const summary = (l: CompanyLogo | null) => (l ? { contentType: l.contentType, bytes: l.image.length } : {});
      await recordAudit(em, ctx, {
        entity: 'company-logo',
        entityId: saved.id,
        action: current ? 'UPDATED' : 'CREATED',
        changes: diff(summary(current), summary(saved)),
      });
      return saved;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError('CONCURRENT_UPDATE', 'The logo changed concurrently; retry');
    throw err;
  }
}

export async function deleteLogo(ctx: TenantContext): Promise<void> {
  assertAdministrator(ctx);
  await inTransaction(ctx, async (em) => {
    const current = await em.findOneBy(CompanyLogo, { companyId: ctx.companyId });
    if (!current) throw new NotFoundError('Logo', 'LOGO_NOT_FOUND');
    await em.delete(CompanyLogo, { id: current.id, companyId: ctx.companyId });
    await recordAudit(em, ctx, { entity: 'company-logo', entityId: current.id, action: 'DELETED', changes: {} });
  });
}

/** The logo the company's DANFE prints (null without one). */
export async function logoOfCompany(em: EntityManager, companyId: number): Promise<Buffer | null> {
  return (await em.findOne(CompanyLogo, { where: { companyId }, select: { id: true, image: true } }))?.image ?? null;
}
