import { diff, recordAudit } from '../../core/audit/audit.service';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import type { Dec } from '../../core/decimal';
import { isUniqueViolation } from '../../core/db/db-errors';
import { BusinessRuleError, ConflictError, StaleVersionError } from '../../core/errors';
import { InvoiceSeries, listSeries, saveSeriesIn } from '../outbound-nfe';
import { NfceConfiguration } from './entities/nfce-configuration.entity';

export interface NfceConfigurationInput {
  series: number;
  nextNumber?: number;
  qrVersion: 2 | 3;
  cscId: number | null;
  cscToken: string | null;
  qrCodeUrl: string;
  consultUrl: string;
  autoIssue: boolean;
  syncTimeoutMs: number;
  identificationThreshold: Dec | null;
  version?: number;
}

/** A filial's NFC-e settings, or null when never saved. */
export async function getNfceConfiguration(
  ctx: TenantContext,
  filialId: number,
): Promise<{ configuration: NfceConfiguration | null; nextNumber: number | null }> {
  await assertFilialAccess(ctx, filialId);
  const configuration = await readerOf(ctx).findOneBy(NfceConfiguration, { companyId: ctx.companyId, filialId });
  const series = configuration
    ? (await listSeries(ctx, filialId)).find((s) => s.model === 65 && s.series === configuration.series)
    : undefined;
  return { configuration, nextNumber: series?.nextNumber ?? null };
}

/**
 * Saves the settings (versioned, audited). The série is the invoices module's série of model 65
 * (created, made the default, and moved forward to `nextNumber` when given — never back), saved in the
 * settings' transaction after their version check: a refused request (409, 422) writes nothing.
 */
export async function putNfceConfiguration(
  ctx: TenantContext,
  filialId: number,
  input: NfceConfigurationInput,
): Promise<{ configuration: NfceConfiguration; nextNumber: number }> {
  await assertFilialAccess(ctx, filialId);
  if (input.qrVersion === 2 && (!input.cscId || !input.cscToken)) {
    throw new BusinessRuleError('CSC_REQUIRED', 'QR code version 2 needs the CSC id and token', {
      errors: [{ path: 'cscToken', message: 'required with qrVersion 2' }],
    });
  }
  try {
    return await inTransaction(ctx, async (em) => {
      const current = await em.findOneBy(NfceConfiguration, { companyId: ctx.companyId, filialId });
      if (current && input.version !== current.version) throw new StaleVersionError('The NFC-e configuration', current.version);
      const existing = await em.findOneBy(InvoiceSeries, { companyId: ctx.companyId, filialId, model: 65, series: input.series });
      const series = await saveSeriesIn(em, ctx, filialId, {
        model: 65,
        series: input.series,
        nextNumber: Math.max(input.nextNumber ?? 1, existing?.nextNumber ?? 1),
        isDefault: true,
      });
      const fields = {
        series: input.series,
        qrVersion: input.qrVersion,
        cscId: input.cscId,
        cscToken: input.cscToken,
        qrCodeUrl: input.qrCodeUrl,
        consultUrl: input.consultUrl,
        autoIssue: input.autoIssue,
        syncTimeoutMs: input.syncTimeoutMs,
        identificationThreshold: input.identificationThreshold,
      };
      const visible = (c: Partial<NfceConfiguration>) => ({
        ...c,
        cscToken: c.cscToken ? '***' : null,
        identificationThreshold: c.identificationThreshold?.toString() ?? null,
      });
      if (!current) {
        const saved = await em.save(em.create(NfceConfiguration, { companyId: ctx.companyId, filialId, ...fields }));
        await recordAudit(em, ctx, {
          entity: 'nfce-configuration',
          entityId: saved.id,
          action: 'CREATED',
          changes: diff({}, visible(fields)),
        });
        return { configuration: saved, nextNumber: series.nextNumber };
      }
      const r = await em
        .createQueryBuilder()
        .update(NfceConfiguration)
        .set({ ...fields, version: () => 'version + 1' } as never)
        .where('id = :id AND company_id = :c AND version = :v', { id: current.id, c: ctx.companyId, v: current.version })
        .execute();
      if (!r.affected) throw new StaleVersionError('The NFC-e configuration', current.version);
      const saved = await em.findOneByOrFail(NfceConfiguration, { id: current.id });
      await recordAudit(em, ctx, {
        entity: 'nfce-configuration',
        entityId: saved.id,
        action: 'UPDATED',
        changes: diff(visible(current), visible(saved)),
      });
      return { configuration: saved, nextNumber: series.nextNumber };
    });
  } catch (err) {
    // Two first saves at once (the settings' or the série's row): the loser writes nothing.
    if (isUniqueViolation(err)) throw new ConflictError('DUPLICATE', 'The NFC-e configuration was created concurrently; retry');
    throw err;
  }
}
