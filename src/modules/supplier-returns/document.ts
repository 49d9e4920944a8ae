import { EntityManager } from 'typeorm';
import type { ActorContext, TenantContext } from '../../core/context';
import { inTransaction, readerOf } from '../../core/db/transaction';
import { AppError, BusinessRuleError, NotFoundError } from '../../core/errors';
import { Dec } from '../../core/decimal';
import { nextSequenceValue } from '../../core/sequence/sequence.service';
import { assertPeriodOpen } from '../fiscal-periods';
import { findAccessibleDocument, supplierReturnSource } from '../entry-document';
import { buildReturnDocument, loadFiscalIssuer, recipientFromParty } from '../fiscal';
import { invoicesOfSource, issueInvoice, registerDocumentSource, SourceDocument } from '../outbound-nfe';
import { findByKeyInFilial, storedXml } from '../inbound-nfe';
import { parseNfe } from '../fiscal-xml';
import {
  assertStock,
  authorizeReturn,
  cancelReturn,
  planReturn,
  registerReturn,
  ReturnRequest,
  settleReturnWithoutPosting,
} from './postings';
import { CODE_SEQUENCE, findByRequestKey, findReturn, itemsOf, reservedLines, setInvoice } from './supplier-returns.repository';

/*
 * Our NF-e de devolução de compra through the invoices module's emission path (SPEC §12.4): the
 * module registers the SUPPLIER_RETURN source, builds the document from the supplier's own NF-e
 * (fiscal buildReturnDocument: tpNF 1, finNFe 4, refNFe, the original values and taxes in proportion)
 * and hears the authority's answers in the transactions that record them (postings.ts).
 */

/** The supplier's NF-e the entry document was imported from, parsed (422 when there is none). */
async function supplierNfe(em: EntityManager, ctx: ActorContext, filialId: number, accessKey: string | null) {
  if (!accessKey) {
    throw new BusinessRuleError(
      'SUPPLIER_NFE_REQUIRED',
      "A devolução references the supplier's NF-e: this entry document was keyed by hand, import the supplier's XML instead",
    );
  }
  return parseNfe(await storedXml(em, ctx, await findByKeyInFilial(em, ctx, filialId, accessKey)));
}

/** The fiscal document of a return: each of its lines as a share of the supplier's line, after the earlier returns of that line. */
async function buildDocument(ctx: TenantContext, id: number, em: EntityManager, date: string): Promise<SourceDocument> {
  const ret = await findReturn(em, ctx.companyId, id);
  if (!ret) throw new NotFoundError('Supplier return');
  if (ret.status !== 'ISSUED' && ret.status !== 'REJECTED')
    throw new BusinessRuleError('SUPPLIER_RETURN_NOT_ISSUABLE', `The supplier return is ${ret.status}`);
  const [items, { doc, lines }] = [await itemsOf(em, ctx.companyId, id), await supplierReturnSource(em, ctx, ret.entryDocumentId)];
  const original = await supplierNfe(em, ctx, doc.filialId, doc.accessKey);
  const before = new Map<number, Dec>();
  for (const r of await reservedLines(em, ctx.companyId, doc.id)) {
    if (r.supplierReturnId < id) before.set(r.entryDocumentItemId, (before.get(r.entryDocumentItemId) ?? new Dec(0)).plus(r.quantity));
  }
  const entryLine = new Map(lines.map((l) => [l.item.id, l.item]));
  const document = buildReturnDocument({
    original,
    side: 'PURCHASE',
    date,
    issuer: await loadFiscalIssuer(ctx, doc.filialId, em),
    recipient: recipientFromParty(original.issuer),
    lines: items.map((i) => {
      const item = entryLine.get(i.entryDocumentItemId)!;
      return {
        lineNumber: item.lineNumber,
        quantity: i.quantity,
        alreadyReturned: before.get(item.id) ?? 0,
        productId: item.productId!,
        entryCfop: item.entryCfop,
      };
    }),
  });
  return {
    filialId: doc.filialId,
    customerId: null,
    salesOrderId: null,
    document,
    notes: `Devolução de compra (NF-e ${doc.series}/${doc.number} do fornecedor). Motivo: ${ret.reason}`,
  };
}

registerDocumentSource({
  kind: 'SUPPLIER_RETURN',
  load: buildDocument,
  onAuthorized: async (em, ctx, o) => {
    await authorizeReturn(em, ctx, o.sourceId, { invoiceId: o.invoiceId, total: o.total });
  },
  // Also run as a dry run before the 110111 is sent (rolled back): a refusal here sends nothing.
  onCancelled: async (em, ctx, c) => {
    await cancelReturn(em, ctx, c.sourceId);
  },
  onReleased: async (em, ctx, o) => {
    await settleReturnWithoutPosting(
      em,
      ctx,
      o.sourceId,
      o.status === 'REJECTED' ? 'reject' : o.status === 'DENIED' ? 'deny' : 'void',
      o.invoiceId,
    );
  },
});

/**
 * POST /supplier-returns/issue/:entryDocumentId: the return is registered (its quantities reserved
 * under the document's lock, everything the request can get wrong refused before anything is written),
 * then its NF-e is issued; the authorization posts in the emission's recording transaction. When no
 * NF-e could be stored (certificate, fiscal data, série), the return is FAILED (its quantities free)
 * and the request answers the emission's problem.
 */
export async function issueSupplierReturn(
  ctx: TenantContext,
  entryDocumentId: number,
  request: ReturnRequest,
  requestKey: string | null,
): Promise<number> {
  const entry = await findAccessibleDocument(ctx, entryDocumentId);
  // The document the NF-e will carry, checked before anything is written (a hand-keyed entry, an over-return → 422).
  await supplierNfe(readerOf(ctx), ctx, entry.filialId, entry.accessKey);
  // A retry of a request that registered its return and died before answering issues that return's NF-e.
  const registered = requestKey ? await findByRequestKey(readerOf(ctx), ctx.companyId, requestKey) : null;
  const id =
    registered?.id ??
    (await (async () => {
      const code = await nextSequenceValue(readerOf(ctx), ctx.companyId, CODE_SEQUENCE);
      return inTransaction(ctx, async (em) => {
        // Registered today (its quantities reserved, its NF-e issued now): refused while today's period is closed.
        await assertPeriodOpen(em, ctx.companyId, entry.filialId, new Date());
        const plan = await planReturn(em, ctx, entryDocumentId, request, true);
        await assertStock(em, plan);
        return registerReturn(em, ctx, plan, request.reason, code, requestKey);
      });
    })());
  try {
    const { doc } = await issueInvoice(ctx, { source: { kind: 'SUPPLIER_RETURN', id } }, requestKey);
    await inTransaction(ctx, (em) => setInvoice(em, ctx.companyId, id, doc.id));
  } catch (err) {
    const stored = (await invoicesOfSource(ctx.companyId, 'SUPPLIER_RETURN', [id], readerOf(ctx))).get(id) ?? [];
    if (!(err instanceof AppError) || stored.length) throw err;
    await inTransaction(ctx, (em) => settleReturnWithoutPosting(em, ctx, id, 'fail'));
    throw err;
  }
  return id;
}
