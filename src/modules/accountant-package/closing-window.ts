import type { EntityManager } from 'typeorm';
import type { PendingDocument, PeriodDocuments, PeriodRange } from '../fiscal-periods';
import { pendingInvoicesOfMonth } from '../outbound-nfe';
import { pendingNotesOfMonth } from '../nfce';
import { unmanifestedOfMonth } from '../inbound-nfe';
import { Filial } from '../tenancy';

/*
 * The provider of fiscal-periods' `periodDocuments` port: the documents of a filial's month still inside a
 * legal window, from the modules that own them (NF-e: invoices, NFC-e: nfce, DF-e received: nfe). The
 * close refuses while there are any, unless forced; the period's detail shows them.
 */
export const closingWindow: PeriodDocuments = {
  async pendingAtClose(em: EntityManager, companyId: number, filialId: number, range: PeriodRange, now: Date): Promise<PendingDocument[]> {
    const filial = await em.findOne(Filial, { where: { companyId, id: filialId }, select: { id: true, uf: true } });
    const uf = filial?.uf ?? 'SP';
    const nfe = await pendingInvoicesOfMonth(em, companyId, filialId, uf, range, now);
    const nfce = await pendingNotesOfMonth(em, companyId, filialId, uf, range, now);
    const dfe = await unmanifestedOfMonth(em, companyId, filialId, range);
    return [...nfe, ...nfce, ...dfe];
  },
};
