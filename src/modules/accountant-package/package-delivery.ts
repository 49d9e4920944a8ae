import crypto from 'node:crypto';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction } from '../../core/db/transaction';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { sendCompanyMail } from '../outbound-nfe';
import { buildPackage } from './package.service';

/*
 * The package pushed on request (issue 47): built as GET …/package.zip builds it and mailed as one
 * attachment through the company's relay (its SMTP settings, else SMTP_URL) — sent after no transaction,
 * then recorded (audit `PACKAGE_SENT`, event `fiscal-period.package-sent` with the ZIP's sha256, so the
 * accountant can check the file received is the one sent). A webhook subscriber of that event (or of
 * fiscal-period.closed) fetches the ZIP itself: the events carry no file.
 */

export interface PackageSent {
  period: string;
  to: string;
  fileName: string;
  bytes: number;
  sha256: string;
  complete: boolean;
  relay: string;
}

export async function sendPackage(ctx: TenantContext, filialId: number, period: string, to: string): Promise<PackageSent> {
  const p = await buildPackage(ctx, filialId, period);
  const complete = p.manifest.complete === true;
  const sha256 = crypto.createHash('sha256').update(p.zip).digest('hex');
  const { relay } = await sendCompanyMail(ctx.companyId, {
    to,
    subject: `Pacote contábil ${period} — CNPJ ${p.manifest.cnpj as string}${complete ? '' : ' (INCOMPLETO)'}`,
    text:
      `Segue o pacote contábil do período ${period} (XML emitidos e recebidos, eventos, inutilizações e manifest.json).\n` +
      `SHA-256 do arquivo: ${sha256}\n` +
      (complete ? '' : 'Atenção: o pacote está incompleto — veja "blocking" no manifest.json.\n'),
    attachments: [{ filename: p.fileName, content: p.zip, contentType: 'application/zip' }],
  });
  const sent: PackageSent = { period, to, fileName: p.fileName, bytes: p.zip.length, sha256, complete, relay };
  await inTransaction(ctx, async (em) => {
    await recordAudit(em, ctx, {
      entity: 'fiscal-period-package',
      entityId: filialId,
      action: 'PACKAGE_SENT',
      changes: { period: [null, period], to: [null, to], sha256: [null, sha256] },
    });
    await publishEvent(em, ctx, {
      type: 'fiscal-period.package-sent',
      filialId,
      aggregateType: 'filial',
      aggregateId: filialId,
      data: { filialId: encodeId('filial', filialId), period, to, fileName: p.fileName, bytes: p.zip.length, sha256, complete },
    });
  });
  return sent;
}
