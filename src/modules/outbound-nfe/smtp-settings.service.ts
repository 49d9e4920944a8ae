import { diff, recordAudit } from '../../core/audit/audit.service';
import { invoicesConfig } from '../../core/config/invoices';
import type { TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { ConflictError, ForbiddenError, NotFoundError } from '../../core/errors';
import { open, seal } from '../sefaz';
import type { CompanySmtp } from './entities/company-smtp.entity';
import { findCompanySmtp, saveCompanySmtp } from './invoices.repository';

/*
 * The company's SMTP server for the NF-e delivery (SPEC §12.2), set by an administrator (a token with
 * `invoice:smtp` granting every filial). The password is sealed at rest with the key that seals the A1
 * certificates, bound to the company, and never answered. Without company settings the configured
 * SMTP_URL is the fallback.
 */

export interface SmtpSettingsInput {
  host: string;
  port: number;
  secure: boolean;
  user?: string | null;
  /** Omitted: the stored password stays; null: no password. */
  password?: string | null;
  from: string;
}

const binding = (companyId: number) => `company-smtp:${companyId}`;

function assertAdministrator(ctx: TenantContext): void {
  if (ctx.grantedFiliais !== '*')
    throw new ForbiddenError("The company's SMTP settings need a token granting every filial of the company", 'ALL_FILIAIS_REQUIRED');
}

export async function getSmtpSettings(ctx: TenantContext): Promise<CompanySmtp> {
  assertAdministrator(ctx);
  const found = await findCompanySmtp(readerOf(ctx), ctx.companyId);
  if (!found) throw new NotFoundError('SMTP settings', 'SMTP_SETTINGS_NOT_FOUND');
  return found;
}

export async function saveSmtpSettings(ctx: TenantContext, input: SmtpSettingsInput): Promise<CompanySmtp> {
  assertAdministrator(ctx);
  try {
    return await inTransaction(ctx, async (em) => {
      const current = await findCompanySmtp(em, ctx.companyId);
      const passwordSealed =
        input.password === undefined
          ? (current?.passwordSealed ?? null)
          : input.password === null
            ? null
            : seal(Buffer.from(input.password, 'utf8'), binding(ctx.companyId));
      const saved = await saveCompanySmtp(em, current, {
        companyId: ctx.companyId,
        host: input.host,
        port: input.port,
        secure: input.secure,
        user: input.user ?? null,
        passwordSealed,
        from: input.from,
      });
      // The audit says that the password changed, never what it is.
      const visible = (s: CompanySmtp | null) =>
        s ? { host: s.host, port: s.port, secure: s.secure, user: s.user, from: s.from, passwordSet: s.passwordSealed !== null } : {};
      const changes = diff(visible(current), visible(saved));
      if (input.password !== undefined && input.password !== null && current?.passwordSealed) changes.password = ['(sealed)', '(replaced)'];
      await recordAudit(em, ctx, { entity: 'company-smtp', entityId: saved.id, action: current ? 'UPDATED' : 'CREATED', changes });
      return saved;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError('CONCURRENT_UPDATE', 'The SMTP settings were created concurrently; retry');
    throw err;
  }
}

/** How a company's mail goes out: its own server, else the configured SMTP_URL; null when neither is set. */
export interface SmtpRelay {
  source: 'COMPANY' | 'CONFIG';
  /** nodemailer transport options (or URL). */
  transport: string | Record<string, unknown>;
  from: string;
  label: string;
}

export async function smtpRelayOf(companyId: number): Promise<SmtpRelay | null> {
  const own = await findCompanySmtp(readerOf(NO_UNIT), companyId);
  if (own) {
    const pass = own.passwordSealed ? open(own.passwordSealed, binding(companyId)).toString('utf8') : undefined;
    return {
      source: 'COMPANY',
      transport: { host: own.host, port: own.port, secure: own.secure, auth: own.user ? { user: own.user, pass } : undefined },
      from: own.from,
      label: `${own.host}:${own.port}`,
    };
  }
  const smtp = invoicesConfig.smtp;
  if (!smtp.url) return null;
  return { source: 'CONFIG', transport: smtp.url, from: smtp.from, label: 'SMTP_URL' };
}
