import { assertFilialAccess, Filial } from '../tenancy';
import type { TenantContext } from '../../core/context';
import { isUniqueViolation } from '../../core/db/db-errors';
import { readerOf } from '../../core/db/transaction';
import { Dec } from '../../core/decimal';
import { BusinessRuleError, ConflictError, FieldError, NotFoundError } from '../../core/errors';
import { Customer } from '../catalog';
import { SalesOrder, SalesOrderItem } from '../sales-order';
import type { NfeItem, ParsedNfe } from '../fiscal-xml';
import { assertImportable, findByKeyInFilial, inspectNfeXml, recipientOf, storedXml } from '../inbound-nfe';
import type { FiscalOrigin } from './entities/sales-return-item.entity';
import { SalesReturn } from './entities/sales-return.entity';
import { OriginalDocument, originalsOfSales, recordReturnCredits, ReturnedTaxes } from './return-document.service';
import { returnsService, ReturnView } from './returns.service';
import { authorizedInvoices } from '../outbound-nfe';

/*
 * A contributor customer's own NF-e de devolução (finNFe 4, CFOP 5202/6202/5411 from his side,
 * refNFe to our sale), imported: booked as a customer return of our sale (origin IMPORTED) under the
 * same returnable limit and locks as /returns, restocked, credited to the sale's receivables; the ICMS
 * his document highlights and the PIS/COFINS of our sale's returned units are taken as credits. No
 * entry document, no payable, and no devolução of ours (he issued it).
 */

export interface ImportedReturnInput {
  xml?: string;
  /** An inbound record of the filial (downloaded from the authority) instead of the XML. */
  accessKey?: string;
  refundMethod: string;
  reason?: string | null;
  restock?: boolean;
}

const digits = (s: string | null | undefined) => (s ?? '').replace(/\D/g, '');

/** His line → our original line: the item he referenced (DFeReferenciado), else our code, else our GTIN. */
function ourLineOf(item: NfeItem, original: OriginalDocument): NfeItem | null {
  const ours = original.parsed.items;
  if (item.referencedDocument?.accessKey === original.accessKey && item.referencedDocument.lineNumber !== null)
    return ours.find((o) => o.lineNumber === item.referencedDocument!.lineNumber) ?? null;
  const byCode = ours.filter((o) => o.code === item.code);
  if (byCode.length === 1) return byCode[0];
  const gtin = item.gtin && item.gtin !== 'SEM GTIN' ? item.gtin : null;
  const byGtin = gtin ? ours.filter((o) => o.gtin === gtin) : [];
  if (byGtin.length === 1) return byGtin[0];
  const byPrice = (byCode.length ? byCode : ours).filter((o) => o.unitPrice.eq(item.unitPrice) && o.ncm === item.ncm);
  return byPrice.length === 1 ? byPrice[0] : null;
}

export async function importCustomerReturn(ctx: TenantContext, filialId: number, input: ImportedReturnInput): Promise<ReturnView> {
  await assertFilialAccess(ctx, filialId);
  const em = readerOf(ctx);
  const filial = await em.findOneBy(Filial, { id: filialId, companyId: ctx.companyId });
  if (!filial) throw new NotFoundError('Filial');
  const xml = input.xml ?? (await storedXml(em, ctx, await findByKeyInFilial(em, ctx, filialId, input.accessKey!)));
  const inspection = await inspectNfeXml(xml, recipientOf(filial));
  assertImportable(inspection.report);
  const nfe: ParsedNfe = inspection.nfe;
  if (nfe.ide.purpose !== '4')
    throw new BusinessRuleError(
      'NOT_A_RETURN',
      `NF-e ${nfe.accessKey} is not a devolução (finNFe ${nfe.ide.purpose ?? '?'}): import it as an entry document`,
    );
  if (await em.existsBy(SalesReturn, { companyId: ctx.companyId, importedAccessKey: nfe.accessKey })) {
    throw new ConflictError('RETURN_ALREADY_IMPORTED', `The devolução ${nfe.accessKey} was already booked as a return`);
  }
  // The sale it reverses: one of ours, authorized, among its references.
  let original: OriginalDocument | null = null;
  for (const key of nfe.ide.referencedKeys) {
    const [ours] = await authorizedInvoices(ctx.companyId, { accessKey: key }, em);
    const orderId = ours?.salesOrderId;
    if (ours && orderId !== null && ours.filialId === filialId) {
      original = (await originalsOfSales(ctx.companyId, [orderId], em)).find((o) => o.accessKey === key) ?? null;
      if (original) break;
    }
  }
  if (!original) {
    throw new NotFoundError('Referenced sale', 'REFERENCED_SALE_NOT_FOUND');
  }
  // Lines: his item → our original line → our sales-order line.
  const problems: FieldError[] = [];
  const byOurLine = new Map<number, { quantity: Dec; origin: FiscalOrigin }>();
  nfe.items.forEach((item, i) => {
    const ours = ourLineOf(item, original!);
    const idx = ours ? original!.parsed.items.indexOf(ours) : -1;
    const salesOrderItemId = ours && original!.itemSources ? original!.itemSources[idx] : null;
    if (!ours || salesOrderItemId === null || salesOrderItemId === undefined) {
      problems.push({
        path: `items[${i}]`,
        message: `item ${item.lineNumber} (${item.code} ${item.description}) matches no line of our NF-e ${original!.accessKey}`,
      });
      return;
    }
    const prev = byOurLine.get(salesOrderItemId);
    const quantity = (prev?.quantity ?? new Dec(0)).plus(item.quantity);
    byOurLine.set(salesOrderItemId, {
      quantity,
      origin: { accessKey: original!.accessKey, lineNumber: ours.lineNumber, quantity: quantity.toString() },
    });
  });
  if (problems.length)
    throw new BusinessRuleError('RETURN_LINES_UNMATCHED', 'Some lines of the devolução match no line of the sale', { errors: problems });
  const line = await em.findOneByOrFail(SalesOrderItem, { companyId: ctx.companyId, id: [...byOurLine.keys()][0] });
  const order = await em.findOneByOrFail(SalesOrder, { companyId: ctx.companyId, id: line.salesOrderId });
  const customer = order.customerId === null ? null : await em.findOneBy(Customer, { companyId: ctx.companyId, id: order.customerId });
  if (!customer || digits(customer.document) !== digits(nfe.issuer.document)) {
    throw new BusinessRuleError(
      'RETURN_ISSUER_NOT_THE_CUSTOMER',
      `The devolução was issued by ${nfe.issuer.document ?? '?'}, not by the sale's customer`,
    );
  }
  try {
    const returnId = await returnsService.book(
      ctx,
      filialId,
      {
        customerId: customer.id,
        reason: (input.reason ?? `Devolucao do cliente NF-e ${nfe.ide.series}/${nfe.ide.number}`).slice(0, 500),
        refundMethod: input.refundMethod,
        items: [...byOurLine].map(([salesOrderItemId, l]) => ({ salesOrderItemId, quantity: l.quantity, restock: input.restock ?? true })),
      },
      {
        origin: 'IMPORTED',
        importedAccessKey: nfe.accessKey,
        origins: new Map([...byOurLine].map(([id, l]) => [id, [l.origin]])),
        afterBooked: async (tx, id) => {
          await recordReturnCredits(tx, ctx, { id, filialId }, nfe.accessKey, importedTaxes(nfe, original!, byOurLine));
        },
      },
    );
    return returnsService.detail(ctx, returnId);
  } catch (err) {
    if (isUniqueViolation(err))
      throw new ConflictError('RETURN_ALREADY_IMPORTED', `The devolução ${nfe.accessKey} was already booked as a return`);
    throw err;
  }
}

/**
 * The taxes an imported devolução gives back: the ICMS his document highlights (it is what the law
 * lets us credit), and the PIS/COFINS of our sale's returned units in proportion (Lei 10.833/2003 art. 3 VIII).
 */
function importedTaxes(
  nfe: ParsedNfe,
  original: OriginalDocument,
  lines: Map<number, { quantity: Dec; origin: FiscalOrigin }>,
): ReturnedTaxes {
  const zero = new Dec(0);
  const share = (v: Dec | null | undefined, q: Dec, whole: Dec) => (v ? v.times(q).div(whole).toDecimalPlaces(2, Dec.ROUND_HALF_UP) : zero);
  let pis = zero;
  let pisBase = zero;
  let cofins = zero;
  let cofinsBase = zero;
  for (const { quantity, origin } of lines.values()) {
    const o = original.parsed.items.find((i) => i.lineNumber === origin.lineNumber)!;
    pis = pis.plus(share(o.taxes.pis?.value, quantity, o.quantity));
    pisBase = pisBase.plus(share(o.taxes.pis?.base, quantity, o.quantity));
    cofins = cofins.plus(share(o.taxes.cofins?.value, quantity, o.quantity));
    cofinsBase = cofinsBase.plus(share(o.taxes.cofins?.base, quantity, o.quantity));
  }
  return {
    icmsBase: nfe.totals.icmsBase,
    icms: nfe.totals.icms,
    ipi: nfe.totals.ipi.plus(nfe.totals.ipiReturned),
    pis,
    pisBase,
    cofins,
    cofinsBase,
  };
}
