import { In } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { assertFilialAccess } from '../tenancy';
import type { ActorContext, TenantContext } from '../../core/context';
import { isMysql } from '../../core/db/engine';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { publishEvent } from '../../core/outbox/outbox.service';
import { assertPeriodOpen } from '../fiscal-periods';
import { asciiText } from '../authority';
import { InvoiceNumberVoid } from './entities/invoice-number-void.entity';
import { InvoiceSeries } from './entities/invoice-series.entity';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import { filialSigning, findInvoice, gz, transition } from './invoice-store';
import { assertTransition } from './invoices.state';
import { outcomeOf, ownerOf } from './document-sources';
import { requestVoiding, voidingRefused, voidingUnavailable } from './voiding';

/*
 * Voiding numbers (inutilização, NFeInutilizacao4): a range of a série that will never be an NF-e.
 * Either numbers not yet taken (the série's next number jumps past them, in the transaction that
 * reserves the range, so no issue can take them meanwhile) or the numbers of REJECTED documents the
 * user abandons (they become VOIDED and release what they billed). The reservation is recorded
 * (PENDING) before the authority is asked, so a number is never skipped in silence: the report shows it.
 */

export interface VoidInput {
  filialId: number;
  series: number;
  model?: number;
  first: number;
  last: number;
  justification: string;
}

const MAX_RANGE = 1000;

async function ask(ctx: ActorContext, row: InvoiceNumberVoid): Promise<InvoiceNumberVoid> {
  const s = await filialSigning(ctx.companyId, row.filialId);
  // No answer: throws and stays PENDING, asked again by the route or the recovery pass.
  const reply = await requestVoiding(s, {
    model: row.model,
    series: row.series,
    first: row.firstNumber,
    last: row.lastNumber,
    justification: row.justification,
    year: String(new Date().getUTCFullYear()).slice(2),
    fallbackUfCode: '35',
  });
  const done = reply.outcome === 'VOIDED';
  const refused = reply.outcome === 'REFUSED';
  await inTransaction(ctx, async (em) => {
    await em.update(
      InvoiceNumberVoid,
      { id: row.id, companyId: row.companyId },
      {
        status: done ? 'VOIDED' : refused ? 'REFUSED' : 'PENDING',
        cStat: reply.cStat,
        xMotivo: reply.xMotivo.slice(0, 255),
        protocol: reply.protocol,
        voidedAt: done ? new Date() : null,
        xmlGz: reply.proc ? gz(reply.proc) : null,
      },
    );
    if (done) {
      // Documents of the range (REJECTED) are VOIDED; what they billed may be billed again.
      const docs = await em.find(OutboundNfe, {
        where: { companyId: row.companyId, seriesId: row.seriesId, status: 'REJECTED', number: In(range(row.firstNumber, row.lastNumber)) },
      });
      for (const d of docs) {
        assertTransition(d, 'void', 'VOIDED');
        const voided = await transition(ctx, d, 'VOIDED', { claim: null }, 'nfe.outbound.number-voided', em, { protocol: reply.protocol });
        // Only a document that held its source's claim releases it (not one its contingency document replaced).
        if (d.claim !== null) await ownerOf(voided)?.provider.onReleased?.(em, ctx, { ...outcomeOf(voided), status: 'VOIDED' });
      }
      if (!docs.length) {
        await publishEvent(em, ctx, {
          type: 'nfe.outbound.number-voided',
          filialId: row.filialId,
          aggregateType: 'invoice-series',
          aggregateId: row.seriesId,
          data: {
            seriesId: encodeId('invoice-series', row.seriesId),
            filialId: encodeId('filial', row.filialId),
            series: row.series,
            first: row.firstNumber,
            last: row.lastNumber,
            protocol: reply.protocol,
          },
        });
      }
    }
    await recordAudit(em, ctx, {
      entity: 'invoice-series',
      entityId: row.seriesId,
      action: done ? 'NUMBERS_VOIDED' : 'NUMBERS_VOID_REFUSED',
      changes: { range: [null, `${row.firstNumber}-${row.lastNumber}`], cStat: [null, reply.cStat] },
    });
  });
  const after = await readerOf(ctx).findOneByOrFail(InvoiceNumberVoid, { id: row.id, companyId: row.companyId });
  if (after.status === 'REFUSED') throw voidingRefused(reply);
  if (after.status === 'PENDING') throw voidingUnavailable(reply);
  return after;
}

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_v, i) => a + i);

/** POST /invoices/void-numbers: numbers never taken (ahead of the série) or of REJECTED documents. */
/**
 * `periodCheck` false: the service settling a document that got in before the close (a first attempt
 * replaced by contingency, a REJECTED number abandoned by the recovery pass) — the close listed it as pending.
 */
export async function voidNumbers(ctx: TenantContext, input: VoidInput, periodCheck = true): Promise<InvoiceNumberVoid> {
  await assertFilialAccess(ctx, input.filialId);
  if (input.last < input.first) throw new BusinessRuleError('INVALID_RANGE', 'last must not be below first');
  if (input.last - input.first + 1 > MAX_RANGE) throw new BusinessRuleError('INVALID_RANGE', `At most ${MAX_RANGE} numbers at once`);
  const model = input.model ?? 55;
  const justification = asciiText(input.justification).slice(0, 255);
  const row = await inTransaction(ctx, async (em) => {
    const series = await em.findOne(InvoiceSeries, {
      where: { companyId: ctx.companyId, filialId: input.filialId, model, series: input.series },
      ...(isMysql ? { lock: { mode: 'pessimistic_write' } } : {}),
    });
    if (!series) throw new NotFoundError('Invoice series', 'SERIES_NOT_FOUND');
    const docs = await em.find(OutboundNfe, {
      where: { companyId: ctx.companyId, seriesId: series.id, number: In(range(input.first, Math.min(input.last, series.nextNumber - 1))) },
    });
    const inUse = docs.find((d) => d.status !== 'REJECTED');
    if (inUse)
      throw new BusinessRuleError(
        'NUMBER_IN_USE',
        `Number ${inUse.number} belongs to an NF-e ${inUse.status}; only numbers never issued or of REJECTED documents are voided`,
        {
          number: inUse.number,
          invoiceStatus: inUse.status,
        },
      );
    // A voiding is dated today; voiding a REJECTED document's number also changes that document's month.
    if (periodCheck) await assertPeriodOpen(em, ctx.companyId, input.filialId, [new Date(), ...docs.map((d) => d.issuedAt)]);
    const byNumber = new Set(docs.map((d) => d.number));
    const gapless = range(input.first, Math.min(input.last, series.nextNumber - 1)).filter((n) => !byNumber.has(n));
    const pending = await em.find(InvoiceNumberVoid, {
      where: { companyId: ctx.companyId, seriesId: series.id, status: In(['PENDING', 'VOIDED']) },
    });
    const overlap = pending.find((v) => v.firstNumber <= input.last && v.lastNumber >= input.first);
    if (overlap) {
      if (overlap.status === 'PENDING' && overlap.firstNumber === input.first && overlap.lastNumber === input.last) return overlap; // asked again
      throw new BusinessRuleError(
        'NUMBER_ALREADY_VOIDED',
        `Numbers ${overlap.firstNumber}-${overlap.lastNumber} are already ${overlap.status === 'VOIDED' ? 'voided' : 'being voided'}`,
      );
    }
    if (gapless.length)
      throw new BusinessRuleError(
        'NUMBER_IN_USE',
        `Number ${gapless[0]} was taken by the série (it is accounted for); nothing to void there`,
      );
    if (input.last >= series.nextNumber) {
      const moved = await em
        .createQueryBuilder()
        .update(InvoiceSeries)
        .set({ nextNumber: input.last + 1, version: () => 'version + 1' })
        .where('id = :id AND company_id = :companyId AND next_number = :n', {
          id: series.id,
          companyId: ctx.companyId,
          n: series.nextNumber,
        })
        .execute();
      if (!moved.affected) throw new BusinessRuleError('CONCURRENT_UPDATE', 'The série moved concurrently; retry');
    }
    const saved = await em.save(
      em.create(InvoiceNumberVoid, {
        companyId: ctx.companyId,
        filialId: input.filialId,
        seriesId: series.id,
        model,
        series: input.series,
        firstNumber: input.first,
        lastNumber: input.last,
        justification,
        status: 'PENDING',
        cStat: null,
        xMotivo: null,
        protocol: null,
        voidedAt: null,
        xmlGz: null,
        actor: ctx.actor.slice(0, 100),
      }),
    );
    await recordAudit(em, ctx, {
      entity: 'invoice-series',
      entityId: series.id,
      action: 'NUMBERS_VOID_REQUESTED',
      changes: diff({}, { first: input.first, last: input.last, justification }),
    });
    return saved;
  });
  return ask(ctx, row);
}

/** The number of one REJECTED document (the user abandons it, or the recovery pass after INVOICE_ABANDON_HOURS). */
export async function voidRejected(ctx: ActorContext, id: number, justification: string, periodCheck = true): Promise<OutboundNfe> {
  const doc = await findInvoice(ctx.companyId, id, readerOf(ctx));
  assertTransition(doc, 'void', 'VOIDED');
  const tenant: TenantContext = { ...ctx, grantedFiliais: [doc.filialId], scopes: [] };
  await voidNumbers(
    tenant,
    { filialId: doc.filialId, series: doc.series, model: doc.model, first: doc.number, last: doc.number, justification },
    periodCheck,
  );
  return findInvoice(ctx.companyId, id, readerOf(ctx));
}

/** PENDING voidings (no answer, authority down) are asked again by the recovery pass. */
export async function retryPendingVoids(limit = 20): Promise<void> {
  const rows = await readerOf(NO_UNIT).find(InvoiceNumberVoid, { where: { status: 'PENDING' }, order: { id: 'ASC' }, take: limit });
  for (const r of rows) await ask({ companyId: r.companyId, actor: 'invoice-recovery' }, r).catch(() => undefined);
}
