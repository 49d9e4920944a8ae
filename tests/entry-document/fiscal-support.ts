import { dataSource } from '../../src/core/db/data-source';
import { EntryCfopRule } from '../../src/modules/entry-document/entities/entry-cfop-rule.entity';
import { EntryDocumentTaxCredit } from '../../src/modules/entry-document/entities/entry-document-tax-credit.entity';
import { ThirdPartyStockBalance } from '../../src/modules/stock/entities/third-party-stock-balance.entity';
import { ThirdPartyStockMovement } from '../../src/modules/stock/entities/third-party-stock-movement.entity';
import { Filial, TaxRegime } from '../../src/modules/tenancy/entities/filial.entity';
import type { TestTenant } from '../support/tenant';
import { docId, footprint } from './support';

/** Probes and setup of the fiscal-booking tests. */

/** The filial's tax regime (the route that changes it belongs to another module; tests set the row). */
export async function setTaxRegime(t: TestTenant, index: number, taxRegime: TaxRegime): Promise<void> {
  await dataSource.manager.update(Filial, { id: t.filialIds[index], companyId: t.companyId }, { taxRegime });
}

export const creditsOf = (t: TestTenant, hash: string) =>
  dataSource.manager.find(EntryDocumentTaxCredit, {
    where: { companyId: t.companyId, entryDocumentId: docId(hash) },
    order: { id: 'ASC' },
  });

export const thirdPartyMovementsOfDoc = (t: TestTenant, hash: string) =>
  dataSource.manager.find(ThirdPartyStockMovement, {
    where: { companyId: t.companyId, referenceType: 'entry-document', referenceId: docId(hash) },
    order: { id: 'ASC' },
  });

export const thirdPartyBalance = (t: TestTenant, filialIndex: number, productId: number) =>
  dataSource.manager.findOneBy(ThirdPartyStockBalance, { companyId: t.companyId, filialId: t.filialIds[filialIndex], productId });

/** footprint() plus the fiscal tables. */
export async function fiscalFootprint(t: TestTenant) {
  const m = dataSource.manager;
  const where = { companyId: t.companyId };
  return {
    ...(await footprint(t)),
    credits: await m.countBy(EntryDocumentTaxCredit, where),
    thirdPartyMovements: await m.countBy(ThirdPartyStockMovement, where),
    thirdPartyBalances: await m.countBy(ThirdPartyStockBalance, where),
    rules: await m.countBy(EntryCfopRule, where),
  };
}

/** Plain strings of a credit row, for deep equality. */
export const creditRow = (c: EntryDocumentTaxCredit) => ({
  tax: c.tax,
  base: c.base.toFixed(2),
  amount: c.amount.toFixed(2),
  taxRegime: c.taxRegime,
  status: c.status,
});
