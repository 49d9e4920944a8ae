import { readerOf, NO_UNIT } from '../core/db/transaction';
import { encodeId } from '../core/hashids';
import type { ExampleIds } from '../core/openapi/example-ids';
import { FiscalOperationRule, TaxGroup } from '../modules/fiscal';
import { Company } from '../modules/tenancy';
import { recordedDemoDocuments } from './demo-document-records';
import { DEMO_COMPANY_CNPJ, summarize } from './demo-seed';

/*
 * The demo tenant's ids for the OpenAPI document's examples (core/openapi/example-ids.ts): where the demo
 * is seeded, "Try it out" reaches its filiais, products, customers, sellers, suppliers, tax groups and fiscal
 * rules, and the documents the document seed made (demo-documents.ts: an order, its NF-e, an entry document…).
 * Read once found (the document seed forgets them when it makes more); undefined while there is no demo tenant.
 */
let found: ExampleIds | undefined;

export async function demoExampleIds(): Promise<ExampleIds | undefined> {
  if (found) return found;
  const em = readerOf(NO_UNIT);
  const company = await em.findOneBy(Company, { cnpj: DEMO_COMPANY_CNPJ });
  if (!company) return undefined;
  const s = await summarize(em, company);
  const taxGroups = await em.find(TaxGroup, { where: { companyId: company.id }, order: { id: 'ASC' } });
  const rules = await em.find(FiscalOperationRule, { where: { companyId: company.id }, order: { id: 'ASC' }, take: 1 });
  const recorded = await recordedDemoDocuments(company.id);
  const documents = Object.entries(recorded).filter(([kind]) => kind !== 'quote');
  found = {
    ...Object.fromEntries(documents.map(([kind, id]) => [kind, [id]])),
    // Two orders where a list of them is shown (grouping): the order, then the quote.
    ...(recorded['sales-order'] && recorded.quote ? { 'sales-order': [recorded['sales-order'], recorded.quote] } : {}),
    company: [s.companyId],
    filial: s.filialIds,
    product: s.productIds,
    customer: s.customerIds,
    seller: s.sellerIds,
    supplier: s.supplierIds,
    'tax-group': taxGroups.map((g) => encodeId('tax-group', g.id)),
    'fiscal-rule': rules.map((r) => encodeId('fiscal-rule', r.id)),
  };
  return found;
}

/** Forgets the ids read (tests that drop and seed the demo again). */
export function forgetDemoExampleIds(): void {
  found = undefined;
}
