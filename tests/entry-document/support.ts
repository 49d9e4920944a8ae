import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { decodeId } from '../../src/core/hashids';
import { EntryDocument } from '../../src/modules/entry-document/entities/entry-document.entity';
import { EntryDocumentItem } from '../../src/modules/entry-document/entities/entry-document-item.entity';
import { EntryDocumentInstallment } from '../../src/modules/entry-document/entities/entry-document-installment.entity';
import { Payable } from '../../src/modules/payables/entities/payable.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { api } from '../support/api';
import { randomCnpj, TestTenant } from '../support/tenant';

/** Request bodies and database probes shared by the entry-document and payables tests. */

let seq = 1000;
export const nextNumber = () => String(++seq + Math.floor(Math.random() * 1000) * 1000);

export interface ItemSpec {
  productId?: string | null;
  quantity?: number | string;
  unitPrice?: number | string;
  [k: string]: unknown;
}

export function item(spec: ItemSpec = {}): Record<string, unknown> {
  return { description: 'Item de teste', unit: 'UN', quantity: 1, unitPrice: 10, ...spec };
}

export function draftBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    number: nextNumber(),
    series: '1',
    issueDate: '2026-03-02',
    entryDate: '2026-03-03',
    supplier: { document: randomCnpj(), name: 'Distribuidora Teste Ltda', uf: 'SP' },
    items: [item()],
    ...over,
  };
}

export async function createDraft(t: TestTenant, body: Record<string, unknown>, filialIndex = 0) {
  const res = await api().post('/api/entry-document').set(t.headers(filialIndex)).send(body);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

export const confirm = (t: TestTenant, id: string) => api().post(`/api/entry-document/confirm/${id}`).set(t.headers());
export const cancel = (t: TestTenant, id: string, body?: object) => {
  const req = api().post(`/api/entry-document/cancel/${id}`).set(t.headers());
  return body ? req.send(body) : req;
};

export const docId = (hash: string) => decodeId('entry-document', hash);

/** Row counts a refused request must leave unchanged. */
export async function footprint(t: TestTenant) {
  const m = dataSource.manager;
  const where = { companyId: t.companyId };
  return {
    documents: await m.countBy(EntryDocument, where),
    items: await m.countBy(EntryDocumentItem, where),
    installments: await m.countBy(EntryDocumentInstallment, where),
    payables: await m.countBy(Payable, where),
    movements: await m.countBy(StockMovement, where),
    audit: await m.countBy(AuditLog, where),
    events: await m.countBy(OutboxEvent, where),
  };
}

export const movementsOf = (t: TestTenant, hash: string) =>
  dataSource.manager.find(StockMovement, {
    where: { companyId: t.companyId, referenceType: 'entry-document', referenceId: docId(hash) },
    order: { id: 'ASC' },
  });

export const payablesOf = (t: TestTenant, hash: string) =>
  dataSource.manager.find(Payable, {
    where: { companyId: t.companyId, entryDocumentId: docId(hash) },
    order: { installmentNumber: 'ASC' },
  });

export const eventsOf = (t: TestTenant, hash: string) =>
  dataSource.manager.find(OutboxEvent, {
    where: { companyId: t.companyId, aggregateType: 'entry-document', aggregateId: docId(hash) },
    order: { id: 'ASC' },
  });

export const auditOf = (t: TestTenant, hash: string) =>
  dataSource.manager.find(AuditLog, {
    where: { companyId: t.companyId, entity: 'entry-document', entityId: docId(hash) },
    order: { id: 'ASC' },
  });
