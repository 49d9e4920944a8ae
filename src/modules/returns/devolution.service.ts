import { EntityManager, In, MoreThan } from 'typeorm';
import { recordAudit } from '../../core/audit/audit.service';
import type { TenantContext } from '../../core/context';
import { inTransaction, NO_UNIT, readerOf } from '../../core/db/transaction';
import { AppError, ConflictError, NotFoundError } from '../../core/errors';
import { encodeId } from '../../core/hashids';
import { logger } from '../../core/logger';
import { issueInvoice, pendingInvoices, registerRecoveryStep } from '../outbound-nfe';
import type { OutboundNfe } from '../outbound-nfe';
import { pendingNotesOfSales } from '../nfce';
import { SalesReturnItem } from './entities/sales-return-item.entity';
import { SalesReturn } from './entities/sales-return.entity';
import { lockReturnLines } from './returns.repository';
import { allocateOrigins, originalsOfSales } from './return-document.service';

/*
 * A return of goods whose sale's NF-e/NFC-e is not authorized yet (SIGNED, SENT, in contingency,
 * REJECTED to be corrected) cannot reference it: its units are traced to the sale's documents, and
 * our devolução issued, once none of them is pending (SPEC §8, §12.4). The return is PENDING until
 * then; tracing moves it to TRACED in one transaction (under the sale lines' locks, so two returns
 * never take the same units), and the devolução is issued after that commit, through the same emission
 * path. The devolution pass (a step of the invoice recovery pass, after the documents are settled)
 * does it automatically; POST /returns/:id/document does it on demand. Exactly once: one live
 * document per return (the claim CR<id>), and the pass issues with the request key
 * `auto-devolution:<id>`, so a pass after a crash resumes the document a dead one stored.
 */

export interface PendingOrigin {
  model: 55 | 65;
  accessKey: string;
  series: number;
  number: number;
  status: string;
}

/** The sales' documents not authorized yet (NF-e and NFC-e). */
export async function pendingOriginsOfSales(companyId: number, salesOrderIds: number[], em: EntityManager): Promise<PendingOrigin[]> {
  const ids = [...new Set(salesOrderIds)];
  const [nfe, nfce] = await Promise.all([pendingInvoices(companyId, ids, em), pendingNotesOfSales(companyId, ids, em)]);
  return [
    ...nfe.map((d) => ({ model: 55 as const, accessKey: d.accessKey, series: d.series, number: d.number, status: d.status })),
    ...nfce.map((d) => ({ model: 65 as const, accessKey: d.accessKey, series: d.series, number: d.number, status: d.status })),
  ];
}

const describePending = (p: PendingOrigin[]) =>
  p.map((d) => `${d.model === 55 ? 'NF-e' : 'NFC-e'} ${d.series}/${d.number} (${d.status})`).join(', ');

/** The problem of a return whose sale's documents are pending: 409, naming them. */
export const originPending = (pending: PendingOrigin[]) =>
  new ConflictError(
    'RETURN_ORIGIN_PENDING',
    `The sale's ${describePending(pending)} is not authorized yet: our devolução is issued automatically once it is`,
    {
      documents: pending.map((d) => ({ model: d.model, accessKey: d.accessKey, series: d.series, number: d.number, status: d.status })),
    },
  );

/**
 * Traces a PENDING return's units to its sales' authorized documents (TRACED; RESOLVED when there is
 * nothing to trace to); 409 RETURN_ORIGIN_PENDING while one of them is still pending.
 */
async function traceOrigins(ctx: TenantContext, returnId: number): Promise<void> {
  const items = await readerOf(ctx).find(SalesReturnItem, { where: { companyId: ctx.companyId, returnId }, order: { id: 'ASC' } });
  await inTransaction(ctx, async (em) => {
    // The sale lines' locks first: returns of the same lines trace one after the other.
    const { items: lines } = await lockReturnLines(
      em,
      ctx.companyId,
      items.map((i) => i.salesOrderItemId),
    );
    const ret = await em.findOneBy(SalesReturn, { id: returnId, companyId: ctx.companyId });
    if (!ret || ret.originStatus !== 'PENDING') return; // traced meanwhile
    const sales = [...new Set(items.map((i) => i.salesOrderId))];
    const pending = await pendingOriginsOfSales(ctx.companyId, sales, em);
    if (pending.length) throw originPending(pending);
    const lineById = new Map(lines.map((l) => [l.id, l]));
    const origins = await allocateOrigins(
      em,
      ctx.companyId,
      items.map((i) => ({ line: lineById.get(i.salesOrderItemId)!, quantity: i.quantity })),
      await originalsOfSales(ctx.companyId, sales, em),
    );
    for (const i of items) {
      const traced = origins.get(i.salesOrderItemId);
      if (traced) await em.update(SalesReturnItem, { id: i.id, companyId: ctx.companyId }, { fiscalOrigins: traced });
    }
    const status = origins.size ? 'TRACED' : 'RESOLVED';
    await em.update(SalesReturn, { id: ret.id, companyId: ctx.companyId, originStatus: 'PENDING' }, { originStatus: status });
    await recordAudit(em, ctx, {
      entity: 'return',
      entityId: ret.id,
      action: 'ORIGINS_TRACED',
      changes: {
        originStatus: ['PENDING', status],
        fiscalOrigins: [
          null,
          [...origins.values()].flatMap((list) => list.map((o) => `${o.accessKey}#${o.lineNumber}×${o.quantity}`)).join(', ') || null,
        ],
      },
    });
  });
}

/** Codes after which a TRACED return has nothing left to issue (a live document exists, or nothing to reference). */
const SETTLED_CODES = new Set(['ALREADY_INVOICED', 'RETURN_WITHOUT_FISCAL_DOCUMENT', 'RETURN_DOCUMENT_BY_CUSTOMER']);

async function markResolved(ctx: TenantContext, returnId: number): Promise<void> {
  await inTransaction(ctx, (em) =>
    em.update(SalesReturn, { id: returnId, companyId: ctx.companyId, originStatus: 'TRACED' }, { originStatus: 'RESOLVED' }),
  );
}

/**
 * Our devolução of a return, through the emission path: a PENDING return is traced first (409
 * RETURN_ORIGIN_PENDING while its sale's documents are pending). Each step commits on its own; the
 * authority is called between them, never inside one.
 */
export async function issueDevolution(
  ctx: TenantContext,
  returnId: number,
  requestKey: string | null,
): Promise<{ doc: OutboundNfe; created: boolean }> {
  const ret = await readerOf(ctx).findOneBy(SalesReturn, { id: returnId, companyId: ctx.companyId });
  if (!ret) throw new NotFoundError('Return');
  if (ret.originStatus === 'PENDING') await traceOrigins(ctx, returnId);
  try {
    const issued = await issueInvoice(ctx, { source: { kind: 'CUSTOMER_RETURN', id: returnId } }, requestKey);
    await markResolved(ctx, returnId);
    return issued;
  } catch (err) {
    if (err instanceof AppError && SETTLED_CODES.has(err.code)) await markResolved(ctx, returnId);
    throw err;
  }
}

const PASS_BATCH = 100;
const PASS_LIMIT = 1000;

/**
 * The devolution pass: every PENDING or TRACED return, oldest first. Those whose sale's documents are
 * still pending wait for the next pass; the others get their devolução (or are resolved without one).
 */
export async function issuePendingDevolutions(): Promise<{ issued: number; waiting: number }> {
  let issued = 0;
  let waiting = 0;
  let after = 0;
  for (let seen = 0; seen < PASS_LIMIT;) {
    const rows = await readerOf(NO_UNIT).find(SalesReturn, {
      where: { originStatus: In(['PENDING', 'TRACED']), id: MoreThan(after) },
      select: { id: true, companyId: true },
      order: { id: 'ASC' },
      take: PASS_BATCH,
    });
    if (!rows.length) break;
    seen += rows.length;
    after = rows[rows.length - 1].id;
    for (const r of rows) {
      const ctx: TenantContext = { companyId: r.companyId, actor: 'devolution-pass', grantedFiliais: '*', scopes: [] };
      try {
        await issueDevolution(ctx, r.id, `auto-devolution:${r.id}`);
        issued++;
      } catch (err) {
        if (err instanceof AppError && err.code === 'RETURN_ORIGIN_PENDING') waiting++;
        else if (!(err instanceof AppError && SETTLED_CODES.has(err.code))) {
          logger.warn('devolution pass could not issue a return’s devolução', {
            returnId: encodeId('return', r.id),
            err: (err as Error).message,
          });
        }
      }
    }
    if (rows.length < PASS_BATCH) break;
  }
  return { issued, waiting };
}

registerRecoveryStep('customer-return-devolutions', issuePendingDevolutions);
