import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { decodeId, encodeId } from '../../src/core/hashids';
import { CiapAppropriation } from '../../src/modules/ciap/entities/ciap-appropriation.entity';
import { CiapAsset } from '../../src/modules/ciap/entities/ciap-asset.entity';
import { CiapPart } from '../../src/modules/ciap/entities/ciap-part.entity';
import { FiscalOperationRule } from '../../src/modules/fiscal/entities/fiscal-operation-rule.entity';
import { api } from '../support/api';
import { makeProduct } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { cancel, confirm, createDraft, draftBody, item } from '../entry-document/support';
import { InvoiceTenant, invoiceTenant } from '../invoices/support';
import { createOrder, fulfill } from '../sales-order/support';
import { setTaxRegime } from '../entry-document/fiscal-support';
import { fiscalDataChanged } from '../../src/modules/fiscal';

/*
 * Row 9 of issue 45, the CIAP (LC 87/1996 art. 20 §5), on both engines: a fixed asset entered with CFOP
 * 1551 is credited 1/48 a month from the month of entry (I), the cents' residue on the last part; a
 * month's part is credited × taxed exits / total exits of the month (III), read from the fiscal books
 * of an NF-e with a taxed line (CST 00, 80.00) and an exempt one (CST 40, 20.00): 80 %.
 */

const month = businessToday().slice(0, 7);
const addMonths = (m: string, n: number) => {
  const [y, mo] = m.split('-').map(Number);
  const i = y * 12 + mo - 1 + n;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
};

describe('CIAP: fixed assets credited in 48 monthly parts by the taxed-exit share', function () {
  this.timeout(120_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let assetProduct: string;

  /** An entry of one asset line (5102 → 1551) with the ICMS given, confirmed; its document hashid. */
  async function assetEntry(icms: string, entryDate = businessToday()) {
    const draft = await createDraft(
      t,
      draftBody({
        issueDate: entryDate,
        entryDate,
        supplier: { document: randomCnpj(), name: 'Refrigeração Industrial Ltda', uf: 'SP', stateRegistration: '110042490114' },
        items: [
          item({
            productId: assetProduct,
            description: 'BALCAO REFRIGERADO 2M',
            cfop: '5102',
            entryCfop: '1551',
            ncm: '84185090',
            quantity: 1,
            unitPrice: '40000.00',
            taxes: { icms: { cst: '00', base: '40000.00', rate: 12, value: icms } },
          }),
        ],
      }),
    );
    const res = await confirm(t, draft.id);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return draft.id as string;
  }

  /** An entry at filial 1 of an asset bought under ST (5403 → 1406): vICMS and vICMSST given. */
  async function stAssetEntry(icms: string, icmsSt: string) {
    const today = businessToday();
    const draft = await createDraft(
      t,
      draftBody({
        issueDate: today,
        entryDate: today,
        supplier: { document: randomCnpj(), name: 'Equipamentos Comerciais Ltda', uf: 'SP', stateRegistration: '110042490114' },
        items: [
          item({
            productId: assetProduct,
            description: 'FREEZER HORIZONTAL 400L',
            cfop: '5403',
            entryCfop: '1406',
            ncm: '84183000',
            quantity: 1,
            unitPrice: '3000.00',
            taxes: {
              icms: { cst: '10', base: '3000.00', rate: 18, value: icms },
              icmsSt: { cst: '10', base: '3666.67', rate: 18, value: icmsSt },
            },
          }),
        ],
      }),
      1,
    );
    const res = await confirm(t, draft.id);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return draft.id as string;
  }

  const assetsOfDocument = (docHash: string) =>
    dataSource.manager.find(CiapAsset, { where: { companyId: t.companyId, entryDocumentId: decodeId('entry-document', docHash) } });
  const detail = (id: string, tenant: TestTenant = t) => api().get(`/api/ciap/assets/detail/${id}`).set(tenant.headers());
  const appropriate = (body: object, tenant: TestTenant = t) => api().post('/api/ciap/appropriations').set(tenant.headers()).send(body);
  const ciapFootprint = async () => ({
    appropriations: await dataSource.manager.countBy(CiapAppropriation, { companyId: t.companyId }),
    booked: await dataSource.manager.countBy(CiapPart, { companyId: t.companyId, status: 'APPROPRIATED' }),
    events: await dataSource.manager.countBy(OutboxEvent, { companyId: t.companyId }),
  });

  let assetA: string; // 4,800.00
  let docA: string;

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
    assetProduct = (await makeProduct(t)).hash;
    // The second product is exempt at sale (CST 40): a tax group of its own whose sale rules say so.
    const exempt = await setupFiscalData(t, { filiais: [0], products: [t.products[1].id] });
    await dataSource.manager.update(
      FiscalOperationRule,
      { companyId: t.companyId, taxGroupId: exempt.taxGroupId, operation: 'SALE' },
      { icmsCst: '40' },
    );
    await fiscalDataChanged(dataSource.manager, t.companyId);
  });

  it('an entry with vICMS 4,800.00 → an asset of 48 parts of 100.00 from the month of entry (4,800.00 / 48)', async () => {
    docA = await assetEntry('4800.00');
    const [row] = await assetsOfDocument(docA);
    expect(row, 'asset recorded').to.exist;
    assetA = encodeId('ciap-asset', row.id);
    const res = await detail(assetA);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({
      entryDocumentId: docA,
      entryCfop: '1551',
      totalCredit: 4800,
      partCount: 48,
      status: 'ACTIVE',
      firstMonth: month,
      partsPending: 48,
      credited: 0,
    });
    expect(res.body.icms).to.deep.equal({ own: 4800, st: 0, freight: 0, difal: 0 });
    expect(res.body.parts).to.have.length(48);
    expect(res.body.parts.every((p: any) => p.amount === 100 && p.status === 'PENDING' && p.credited === null)).to.equal(true);
    expect(res.body.parts.map((p: any) => p.month)).to.deep.equal(Array.from({ length: 48 }, (_v, i) => addMonths(month, i)));
    // The entry itself books no ICMS credit for the asset (LC 87/1996 art. 20 §5: it is the CIAP's).
    const doc = (await api().get(`/api/entry-document/${docA}`).set(t.headers())).body;
    expect((doc.taxCredits ?? []).filter((c: any) => c.tax === 'ICMS')).to.deep.equal([]);
  });

  it('vICMS 1,000.00 → 47 parts of 20.83 and the last of 20.99 (1,000.00 − 47 × 20.83); cancelling the entry cancels the asset and drops its parts', async () => {
    const doc = await assetEntry('1000.00');
    const [row] = await assetsOfDocument(doc);
    const id = encodeId('ciap-asset', row.id);
    const parts = (await detail(id)).body.parts;
    expect(parts.slice(0, 47).every((p: any) => p.amount === 20.83)).to.equal(true);
    expect(parts[47].amount).to.equal(20.99);
    const cancelled = await cancel(t, doc, { reason: 'Compra desfeita com o fornecedor' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const after = (await detail(id)).body;
    expect(after).to.deep.include({
      status: 'CANCELLED',
      partsPending: 0,
      partsDropped: 48,
      partsAppropriated: 0,
      cancelReason: 'Compra desfeita com o fornecedor',
    });
    const events = await dataSource.manager.find(OutboxEvent, {
      where: { companyId: t.companyId, type: 'ciap-asset.cancelled', aggregateId: row.id },
    });
    expect(events).to.have.length(1);
  });

  it('the month with taxed exits 80 % credits 80.00 of the 100.00 part (art. 20 §5 III); two calls at once book it once, a third changes nothing', async () => {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      items: [
        { productId: t.products[0].hash, quantity: 1, unitPrice: '80.00' },
        { productId: t.products[1].hash, quantity: 1, unitPrice: '20.00' },
      ],
    });
    const ful = await fulfill(
      t,
      order.id,
      order.items.map((i: any) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
    );
    expect(ful.status, JSON.stringify(ful.body)).to.equal(201);
    const issued = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId: ful.body.fulfillment.id });
    expect(issued.status, JSON.stringify(issued.body)).to.equal(201);
    expect(issued.body.status).to.equal('AUTHORIZED');

    const body = { filialId: t.filialHashes[0], month };
    const [one, two] = await Promise.all([appropriate(body), appropriate(body)]);
    for (const r of [one, two]) expect(r.status, JSON.stringify(r.body)).to.equal(200);
    expect([one.body.booked, two.body.booked].sort()).to.deep.equal([0, 1]);
    for (const r of [one, two]) {
      expect(r.body.appropriation).to.deep.include({
        month,
        taxedExits: 80,
        totalExits: 100,
        exitShare: 0.8,
        partsTotal: 100,
        credited: 80,
        partCount: 1,
      });
      expect(r.body.parts).to.deep.equal([{ assetId: assetA, description: 'BALCAO REFRIGERADO 2M', number: 1, amount: 100, credited: 80 }]);
    }
    const before = await ciapFootprint();
    expect(before.appropriations).to.equal(1);
    const third = await appropriate(body);
    expect(third.status).to.equal(200);
    expect(third.body).to.deep.include({ booked: 0, revised: false });
    expect(third.body.appropriation).to.deep.include({ credited: 80, partCount: 1 });
    expect(await ciapFootprint()).to.deep.equal(before);
    const events = await dataSource.manager.find(OutboxEvent, { where: { companyId: t.companyId, type: 'ciap-appropriation.booked' } });
    expect(events).to.have.length(1);

    const a = (await detail(assetA)).body;
    expect(a).to.deep.include({ partsAppropriated: 1, partsPending: 47, credited: 80 });
    expect(a.parts[0]).to.deep.equal({ number: 1, month, amount: 100, status: 'APPROPRIATED', credited: 80 });
    expect(a.appropriations).to.have.length(1);
  });

  it('while the month is open a later call brings its share up to the books: an exempt sale of 25.00 more → 80 / 125 = 64 % → 64.00, the part not booked twice', async () => {
    const order = await createOrder(t, {
      customerId: t.customer.hash,
      items: [{ productId: t.products[1].hash, quantity: 1, unitPrice: '25.00' }],
    });
    const ful = await fulfill(
      t,
      order.id,
      order.items.map((i: any) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
    );
    expect(ful.status, JSON.stringify(ful.body)).to.equal(201);
    const issued = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId: ful.body.fulfillment.id });
    expect(issued.body.status, JSON.stringify(issued.body)).to.equal('AUTHORIZED');
    const res = await appropriate({ filialId: t.filialHashes[0], month });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ booked: 0, revised: true });
    expect(res.body.appropriation).to.deep.include({
      taxedExits: 80,
      totalExits: 125,
      exitShare: 0.64,
      partsTotal: 100,
      credited: 64,
      partCount: 1,
    });
    expect(res.body.parts).to.deep.equal([{ assetId: assetA, description: 'BALCAO REFRIGERADO 2M', number: 1, amount: 100, credited: 64 }]);
    const again = await appropriate({ filialId: t.filialHashes[0], month });
    expect(again.body).to.deep.include({ booked: 0, revised: false });
    expect(await dataSource.manager.countBy(OutboxEvent, { companyId: t.companyId, type: 'ciap-appropriation.revised' })).to.equal(1);
    expect(await dataSource.manager.countBy(CiapAppropriation, { companyId: t.companyId })).to.equal(1);
  });

  it('lists the filial’s assets newest first through the pagination engine, with a cursor', async () => {
    const first = await api().get(`/api/ciap/assets/${t.filialHashes[0]}?pageSize=1`).set(t.headers());
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    expect(first.body.data).to.have.length(1);
    expect(first.body.data[0].status).to.equal('CANCELLED');
    expect(first.body.pagination).to.include({ total: 2, hasMore: true });
    const second = await api()
      .get(`/api/ciap/assets/${t.filialHashes[0]}?pageSize=1&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`)
      .set(t.headers());
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    expect(second.body.data.map((a: any) => a.id)).to.deep.equal([assetA]);
    expect(second.body.pagination.hasMore).to.equal(false);
    const active = await api().get(`/api/ciap/assets/${t.filialHashes[0]}?status=ACTIVE`).set(t.headers());
    expect(active.body.data.map((a: any) => a.id)).to.deep.equal([assetA]);
  });

  it('another tenant gets 404 for the asset and 403 for the filial (its list, its appropriation), and nothing is written', async () => {
    const before = await ciapFootprint();
    expectProblem(await detail(assetA, other), 404, 'CIAP_ASSET_NOT_FOUND');
    // A filial of another company is refused as everywhere in the API (core's filial check): 403 FILIAL_NOT_GRANTED.
    expectProblem(await api().get(`/api/ciap/assets/${t.filialHashes[0]}`).set(other.headers()), 403, 'FILIAL_NOT_GRANTED');
    expectProblem(await appropriate({ filialId: t.filialHashes[0], month }, other), 403, 'FILIAL_NOT_GRANTED');
    // Its own filial's list does not show them.
    expect((await api().get(`/api/ciap/assets/${other.filialHashes[0]}`).set(other.headers())).body.data).to.deep.equal([]);
    expect(await ciapFootprint()).to.deep.equal(before);
  });

  it('bad input answers 400 problem+json (and a month not begun 422), writing nothing', async () => {
    const before = await ciapFootprint();
    const bad = await appropriate({ filialId: t.filialHashes[0], month: `${month.slice(0, 4)}-13` });
    expectProblem(bad, 400);
    expect(bad.headers['content-type']).to.match(/application\/problem\+json/);
    expectProblem(await appropriate({ month }), 400);
    expectProblem(await appropriate({ filialId: 'not-an-id', month }), 400);
    expectProblem(await api().get('/api/ciap/assets/detail/xyz').set(t.headers()), 400);
    expectProblem(await api().get(`/api/ciap/assets/${t.filialHashes[0]}?status=GONE`).set(t.headers()), 400);
    expectProblem(await appropriate({ filialId: t.filialHashes[0], month: addMonths(month, 1) }), 422, 'CIAP_MONTH_IN_FUTURE');
    expect(await ciapFootprint()).to.deep.equal(before);
  });

  it('a closed month is refused (409 FISCAL_PERIOD_CLOSED), writing nothing', async () => {
    const previous = addMonths(month, -1);
    const closed = await api().post(`/api/fiscal-periods/${t.filialHashes[0]}/${previous}/close`).set(t.headers()).send({ force: true });
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    const before = await ciapFootprint();
    expectProblem(await appropriate({ filialId: t.filialHashes[0], month: previous }), 409, 'FISCAL_PERIOD_CLOSED');
    expect(await ciapFootprint()).to.deep.equal(before);
  });

  it('cancelling the entry after a month was appropriated keeps that part and drops the 47 pending', async () => {
    const res = await cancel(t, docA, { reason: 'Bem devolvido ao fornecedor' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const a = (await detail(assetA)).body;
    expect(a).to.deep.include({ status: 'CANCELLED', partsAppropriated: 1, partsDropped: 47, partsPending: 0, credited: 64 });
  });

  it('an asset bought under ST (1406) credits its own ICMS and the ST: 540.00 + 120.00 = 660.00 → 48 × 13.75; a Simples Nacional filial records none (LC 123/2006 art. 23)', async () => {
    await setTaxRegime(t, 1, 'SIMPLES_NACIONAL');
    const simples = await stAssetEntry('540.00', '120.00');
    expect(await assetsOfDocument(simples)).to.deep.equal([]);
    await setTaxRegime(t, 1, 'LUCRO_PRESUMIDO');
    const doc = await stAssetEntry('540.00', '120.00');
    const [row] = await assetsOfDocument(doc);
    const a = (await detail(encodeId('ciap-asset', row.id))).body;
    expect(a).to.deep.include({ filialId: t.filialHashes[1], entryCfop: '1406', totalCredit: 660, status: 'ACTIVE' });
    expect(a.icms).to.deep.equal({ own: 540, st: 120, freight: 0, difal: 0 });
    expect(a.parts.every((p: any) => p.amount === 13.75)).to.equal(true);
    const list = (await api().get(`/api/ciap/assets/${t.filialHashes[1]}`).set(t.headers(1))).body;
    expect(list.data.map((x: any) => x.id)).to.deep.equal([a.id]);
  });
});
