import { Between, EntityManager, In } from 'typeorm';
import { diff, recordAudit } from '../../core/audit/audit.service';
import { assertFilialAccess } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { isMysql } from '../../core/db/engine';
import type { Statement } from '../../core/db/batching-query-runner';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { BusinessRuleError, ConflictError, NotFoundError } from '../../core/errors';
import { InvoiceNumberVoid } from './entities/invoice-number-void.entity';
import { InvoiceSeries } from './entities/invoice-series.entity';
import { OutboundNfe } from './entities/outbound-nfe.entity';
import { counterNotes, CounterNumberFate } from './invoices.ports';

/*
 * Séries and their numbers: configured per filial and model; the next number only moves forward
 * (never back onto numbers the série already gave out); the report lists every number's fate.
 */

export async function listSeries(ctx: TenantContext, filialId: number): Promise<InvoiceSeries[]> {
  return readerOf(ctx).find(InvoiceSeries, { where: { companyId: ctx.companyId, filialId }, order: { model: 'ASC', series: 'ASC' } });
}

export interface SeriesInput {
  model: 55 | 65;
  series: number;
  nextNumber: number;
  isDefault: boolean;
}

export async function saveSeries(ctx: TenantContext, filialId: number, input: SeriesInput): Promise<InvoiceSeries> {
  try {
    return await inTransaction(ctx, (em) => saveSeriesIn(em, ctx, filialId, input));
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError('DUPLICATE', 'The série was created concurrently; retry');
    throw err;
  }
}

/**
 * The same inside a caller's transaction (the NFC-e settings save the série with the settings, so a
 * refused request writes neither). A concurrent creation surfaces as the engine's unique violation.
 */
export async function saveSeriesIn(em: EntityManager, ctx: TenantContext, filialId: number, input: SeriesInput): Promise<InvoiceSeries> {
  const current = await em.findOneBy(InvoiceSeries, { companyId: ctx.companyId, filialId, model: input.model, series: input.series });
  if (current && input.nextNumber < current.nextNumber) {
    throw new BusinessRuleError(
      'SERIES_NUMBER_BACKWARDS',
      `Série ${input.series} already gave out numbers up to ${current.nextNumber - 1}; the next number cannot go back`,
      {
        nextNumber: current.nextNumber,
      },
    );
  }
  if (input.isDefault)
    await em.update(InvoiceSeries, { companyId: ctx.companyId, filialId, model: input.model, isDefault: true }, { isDefault: false });
  let saved: InvoiceSeries;
  if (current) {
    const r = await em
      .createQueryBuilder()
      .update(InvoiceSeries)
      .set({ nextNumber: input.nextNumber, isDefault: input.isDefault, version: () => 'version + 1' })
      .where('id = :id AND company_id = :c AND next_number <= :n', { id: current.id, c: ctx.companyId, n: input.nextNumber })
      .execute();
    if (!r.affected) throw new ConflictError('CONCURRENT_UPDATE', 'The série moved concurrently; retry');
    saved = await em.findOneByOrFail(InvoiceSeries, { id: current.id });
  } else {
    saved = await em.save(em.create(InvoiceSeries, { companyId: ctx.companyId, filialId, ...input }));
  }
  await recordAudit(em, ctx, {
    entity: 'invoice-series',
    entityId: saved.id,
    action: current ? 'UPDATED' : 'CREATED',
    changes: diff(current ? { nextNumber: current.nextNumber, isDefault: current.isDefault } : {}, {
      nextNumber: saved.nextNumber,
      isDefault: saved.isDefault,
    }),
  });
  return saved;
}

export type NumberFate =
  'AUTHORIZED' | 'CANCELLED' | 'DENIED' | 'REJECTED' | 'SIGNED' | 'SENT' | 'VOIDED' | 'VOID_PENDING' | CounterNumberFate;

export interface NumberReport {
  series: InvoiceSeries;
  from: number;
  to: number;
  numbers: { number: number; fate: NumberFate; invoiceId: number | null; nfceId: number | null; accessKey: string | null }[];
  /** Numbers of the range the série gave out that nothing accounts for (must stay empty). */
  unaccounted: number[];
}

const MAX_REPORT = 1000;

export async function numberReport(ctx: TenantContext, seriesId: number, range: { from?: number; to?: number }): Promise<NumberReport> {
  const series = await readerOf(ctx).findOneBy(InvoiceSeries, { id: seriesId, companyId: ctx.companyId });
  if (!series) throw new NotFoundError('Invoice series', 'SERIES_NOT_FOUND');
  await assertFilialAccess(ctx, series.filialId);
  const last = series.nextNumber - 1;
  const from = Math.max(1, range.from ?? 1);
  const to = Math.min(last, range.to ?? from + MAX_REPORT - 1, from + MAX_REPORT - 1);
  if (to < from) return { series, from, to: from - 1, numbers: [], unaccounted: [] };
  const em = readerOf(ctx);
  // Model 55: the outbound NF-e; model 65: the NFC-e module's notes (and their online attempts).
  const [docs, notes, voids] = await Promise.all([
    series.model === 65
      ? []
      : em.find(OutboundNfe, {
          where: { companyId: ctx.companyId, seriesId: series.id, number: Between(from, to) },
          select: { id: true, number: true, status: true, accessKey: true },
        }),
    series.model === 65 ? counterNotes.get().numbersOf(em, ctx.companyId, series.id, from, to) : [],
    em.find(InvoiceNumberVoid, { where: { companyId: ctx.companyId, seriesId: series.id, status: In(['PENDING', 'VOIDED']) } }),
  ]);
  const byNumber = new Map(docs.map((d) => [d.number, d]));
  const noteOf = new Map(notes.map((n) => [n.number, n]));
  const numbers: NumberReport['numbers'] = [];
  const unaccounted: number[] = [];
  for (let n = from; n <= to; n++) {
    const d = byNumber.get(n);
    if (d) {
      numbers.push({ number: n, fate: d.status, invoiceId: d.id, nfceId: null, accessKey: d.accessKey });
      continue;
    }
    const note = noteOf.get(n);
    if (note) {
      numbers.push({ number: n, fate: note.fate, invoiceId: null, nfceId: note.nfceId, accessKey: note.accessKey });
      continue;
    }
    const v = voids.find((x) => n >= x.firstNumber && n <= x.lastNumber);
    if (v)
      numbers.push({ number: n, fate: v.status === 'VOIDED' ? 'VOIDED' : 'VOID_PENDING', invoiceId: null, nfceId: null, accessKey: null });
    else unaccounted.push(n);
  }
  return { series, from, to, numbers, unaccounted };
}

/** nNF runs 1–999 999 999 (layout: TNF). */
const LAST_NUMBER = 999_999_999;
const seriesExhausted = (series: number) => new BusinessRuleError('SERIES_EXHAUSTED', `Série ${series} has used every number`);

/**
 * The same number taking as statements a caller sends in one round trip with its own reads (MySQL;
 * the counter's NFC-e): the UPDATE takes the série's row lock and its number, held until the caller's
 * transaction ends, and the SELECT reads the série as written. `series` is the série's number as an
 * SQL expression (a subquery of the caller's settings). `takenNumber` reads the two answers.
 */
export function takeNumberStatements(
  companyId: number,
  filialId: number,
  model: 55 | 65,
  series: { sql: string; params: unknown[] },
): { take: Statement; read: Statement } {
  const where = `WHERE company_id = ? AND filial_id = ? AND model = ? AND series = (${series.sql})`;
  const params = [companyId, filialId, model, ...series.params];
  return {
    take: {
      sql: `UPDATE invoice_series SET next_number = next_number + 1, version = version + 1 ${where} AND next_number <= ${LAST_NUMBER}`,
      params,
    },
    read: { sql: `SELECT id, series, next_number FROM invoice_series ${where}`, params },
  };
}

/** The série read by takeNumberStatements' `read` (undefined: no such série), and the number its `take` took. */
export function takenNumber(take: unknown, read: unknown): { series: { id: number; series: number }; number: () => number } | undefined {
  const row = (read as { id: number; series: number; next_number: number | string }[])[0];
  if (!row) return undefined;
  const series = { id: Number(row.id), series: Number(row.series) };
  const taken = (take as { affectedRows: number }).affectedRows > 0;
  return {
    series,
    number: () => {
      if (!taken) throw seriesExhausted(series.series);
      return Number(row.next_number) - 1;
    },
  };
}

/**
 * Takes the série's next number inside the transaction that records the document using it (NF-e and
 * NFC-e alike): a rollback gives it back, a commit stores the document, so numbers have no gaps. The
 * row is locked on MySQL; the conditional UPDATE refuses a série that moved meanwhile (409).
 */
export async function takeNextNumber(em: EntityManager, companyId: number, series: Pick<InvoiceSeries, 'id' | 'series'>): Promise<number> {
  const row = isMysql
    ? (
        (await em.query('SELECT next_number FROM invoice_series WHERE id = ? AND company_id = ? FOR UPDATE', [series.id, companyId])) as {
          next_number: number;
        }[]
      )[0]
    : { next_number: (await em.findOneByOrFail(InvoiceSeries, { id: series.id, companyId })).nextNumber };
  const number = Number(row.next_number);
  if (number > LAST_NUMBER) throw seriesExhausted(series.series);
  const taken = await em
    .createQueryBuilder()
    .update(InvoiceSeries)
    .set({ nextNumber: number + 1, version: () => 'version + 1' })
    .where('id = :id AND company_id = :companyId AND next_number = :number', { id: series.id, companyId, number })
    .execute();
  if (!taken.affected) throw new ConflictError('CONCURRENT_UPDATE', 'The série moved concurrently; retry');
  return number;
}
