import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { businessToday } from '../../src/core/business-date';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { Counter, counterTenant } from './support';

/*
 * Issue 44: the NFC-e of a filial are found by a list, not only by the quick sale's answer — by
 * status, issue day, série, number, key, consumer document or sale, and a search box; cursor pages.
 */
describe('NFC-e list and search (GET /nfce/list/:filialId)', function () {
  this.timeout(120_000);
  let c: Counter;
  let other: TestTenant;
  const notes: any[] = [];
  const list = (query: Record<string, unknown> = {}, headers = c.t.headers()) =>
    api().get(`/api/nfce/list/${c.t.filialHashes[0]}`).set(headers).query(query);

  before(async () => {
    c = await counterTenant();
    other = await createTestTenant();
    await c.save();
    for (const consumerDocument of [null, '52998224725', null]) {
      const res = await c.sell(consumerDocument ? { consumerDocument } : {});
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      notes.push({ ...res.body.fiscalDocument, orderId: res.body.id });
    }
    // The first note issued yesterday (São Paulo calendar): the date range finds it apart.
    await dataSource.manager.update(
      NfceDocument,
      { companyId: c.t.companyId, accessKey: notes[0].accessKey },
      { issuedAt: new Date(Date.now() - 36 * 3600_000) },
    );
  });

  it('lists the filial’s notes newest first, with the detail’s fields', async () => {
    const res = await list();
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.map((n: any) => n.number)).to.deep.equal([3, 2, 1]);
    expect(res.body.pagination).to.include({ total: 3, hasMore: false });
    const detail = await api().get(`/api/nfce/detail/${notes[2].id}`).set(c.t.headers());
    expect(res.body.data[0]).to.deep.equal(detail.body);
  });

  it('filters by issue day, status, série, number, key, consumer document and sale', async () => {
    const today = businessToday();
    const numbers = async (q: Record<string, unknown>) => {
      const res = await list(q);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.map((n: any) => n.number);
    };
    expect(await numbers({ issuedFrom: today, issuedTo: today })).to.deep.equal([3, 2]);
    expect(await numbers({ issuedTo: today, issuedFrom: '2000-01-01' })).to.deep.equal([3, 2, 1]);
    expect(await numbers({ issuedFrom: '2000-01-01', issuedTo: '2000-01-02' })).to.deep.equal([]);
    expect(await numbers({ status: 'AUTHORIZED', series: 1 })).to.deep.equal([3, 2, 1]);
    expect(await numbers({ status: 'CANCELLED' })).to.deep.equal([]);
    expect(await numbers({ series: 2 })).to.deep.equal([]);
    expect(await numbers({ number: 2 })).to.deep.equal([2]);
    expect(await numbers({ accessKey: notes[2].accessKey })).to.deep.equal([3]);
    expect(await numbers({ consumerDocument: '529.982.247-25' })).to.deep.equal([2]);
    expect(await numbers({ salesOrderId: notes[0].orderId })).to.deep.equal([1]);
    expect(await numbers({ search: notes[0].accessKey })).to.deep.equal([1]);
    expect(await numbers({ search: '529.982.247-25' })).to.deep.equal([2]);
    expect(await numbers({ search: '3' })).to.deep.equal([3]);
    expect(await numbers({ search: 'café' })).to.deep.equal([]);
  });

  it('pages by cursor', async () => {
    const first = await list({ pageSize: 2 });
    expect(first.body.data.map((n: any) => n.number)).to.deep.equal([3, 2]);
    expect(first.body.pagination.hasMore).to.equal(true);
    const second = await list({ pageSize: 2, cursor: first.body.pagination.nextCursor });
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    expect(second.body.data.map((n: any) => n.number)).to.deep.equal([1]);
    expectProblem(await list({ pageSize: 2, cursor: first.body.pagination.nextCursor, status: 'AUTHORIZED' }), 400, 'INVALID_CURSOR');
  });

  it('the quick sale’s order detail links its NFC-e', async () => {
    const res = await api().get(`/api/sales-order/detail/${notes[1].orderId}`).set(c.t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const note = (await api().get(`/api/nfce/detail/${notes[1].id}`).set(c.t.headers())).body;
    expect(res.body.fiscalDocuments).to.deep.equal([
      {
        model: 65,
        id: notes[1].id,
        purpose: 'SALE',
        series: 1,
        number: 2,
        accessKey: notes[1].accessKey,
        status: 'AUTHORIZED',
        issuedAt: note.issuedAt,
        total: 40.9,
        href: `/api/nfce/detail/${notes[1].id}`,
      },
    ]);
  });

  it('bad filters are 400; another tenant’s filial is refused, its notes never listed', async () => {
    expectProblem(await list({ issuedFrom: '2026-02-30' }), 400, 'VALIDATION_ERROR');
    expectProblem(await list({ accessKey: '123' }), 400, 'VALIDATION_ERROR');
    expectProblem(await list({ consumerDocument: '11111111111' }), 400, 'VALIDATION_ERROR');
    expectProblem(await list({ model: 65 }), 400);
    expectProblem(await api().get(`/api/nfce/list/${c.t.filialHashes[0]}`).set(other.headers()), 403);
    const theirs = await api().get(`/api/nfce/list/${other.filialHashes[0]}`).set(other.headers());
    expect(theirs.status).to.equal(200);
    expect(theirs.body.data).to.deep.equal([]);
    // Filial 1 of the same company has no notes.
    const filial1 = await api().get(`/api/nfce/list/${c.t.filialHashes[1]}`).set(c.t.headers(1));
    expect(filial1.body.data).to.deep.equal([]);
  });
});
