import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { api } from '../support/api';
import { addStock, makePaymentMethod, makeProduct } from '../support/catalog';
import { FiscalOperationRule } from '../../src/modules/fiscal/entities/fiscal-operation-rule.entity';
import { ApproximateTax } from '../../src/modules/fiscal/entities/approximate-tax.entity';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { createOrder, fulfill } from '../sales-order/support';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { invoiceTenant, InvoiceTenant } from '../invoices/support';
import { fiscalDataChanged } from '../../src/modules/fiscal';

/*
 * Issue 45, the tax law's remaining rows, each hand-computed from the rule it cites, driven through the
 * master-data routes (customers, filial, tax groups, operation rules), POST /fiscal/preview and an
 * issued NF-e whose nfeProc validates against PL_010 (xmllint) and verifies (xmlsec1).
 */

/** The first `<name>` text of an XML (inside `scope` when given). */
const tag = (xml: string, name: string, scope?: string): string | null => {
  const within = scope ? (xml.match(new RegExp(`<${scope}[ >][\\s\\S]*?</${scope}>`))?.[0] ?? '') : xml;
  return within.match(new RegExp(`<${name}>([^<]*)</${name}>`))?.[1] ?? null;
};

describe('Tax law rows (issue 45)', function () {
  this.timeout(90_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let contributor: { id: string; version: number };
  let ipiProduct: { hash: string; id: number };
  const today = businessToday();

  const issue = async (body: Record<string, unknown>) => {
    const res = await api().post('/api/invoices/issue').set(t.headers()).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, { companyId: t.companyId, id: decodeId('invoice', res.body.id) });
    const proc = gunzipText(doc.procXmlGz!);
    if (canValidateXsd) expect(xsdErrors(proc), proc).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(proc)).to.equal(null);
    return { res, proc };
  };
  const fulfilled = async (body: Record<string, unknown>) => {
    const order = await createOrder(t, body);
    const f = await fulfill(
      t,
      order.id,
      order.items.map((i: { salesOrderItemId: string; quantity: number }) => ({
        salesOrderItemId: i.salesOrderItemId,
        quantity: i.quantity,
      })),
    );
    expect(f.status, JSON.stringify(f.body)).to.equal(201);
    return { order, fulfillmentId: f.body.fulfillment.id as string };
  };

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
    // An industrial filial (Lucro Real) selling to a contributor of SP: a group with IPI 10 % (CST 50).
    const filialPath = `/api/settings/filial/${t.filialHashes[0]}`;
    const filial = await api().get(filialPath).set(t.headers());
    const industrial = await api().patch(filialPath).set(t.headers()).send({ version: filial.body.version, industrial: true });
    expect(industrial.status, JSON.stringify(industrial.body)).to.equal(200);
    const group = await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code: 'IND45', name: 'Produção própria' });
    expect(group.status, JSON.stringify(group.body)).to.equal(201);
    for (const contributorFlag of [true, false]) {
      const rule = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId: group.body.id,
        operation: 'SALE',
        destination: 'INTERNAL',
        contributor: contributorFlag,
        validFrom: '2020-01-01',
        cfop: '5101',
        icmsCst: '00',
        csosn: '101',
        ipiCst: '50',
        ipiRate: 10,
        ipiEnquadramento: '999',
      });
      expect(rule.status, JSON.stringify(rule.body)).to.equal(201);
    }
    const p = await makeProduct(t, { ncm: '94036000', price: '50' as never } as never);
    const patched = await api()
      .patch(`/api/catalog/products/${p.hash}`)
      .set(t.headers())
      .send({ version: p.version, taxGroupId: group.body.id });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    await addStock(t, 0, p.id, 1000, '20');
    ipiProduct = { hash: p.hash, id: p.id };
    const created = await api()
      .post('/api/catalog/customers')
      .set(t.headers())
      .send({
        name: 'Construtora Alvorada Ltda',
        document: '11444777000161',
        personType: 'PJ',
        ieIndicator: 1,
        stateRegistration: '110042490114',
        email: 'compras@alvorada.com.br',
        address: {
          street: 'Rua Vergueiro',
          number: '900',
          district: 'Liberdade',
          municipalityCode: '3550308',
          municipalityName: 'São Paulo',
          uf: 'SP',
          postalCode: '01504000',
        },
      });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    contributor = created.body;
  });

  describe('row 1: indFinal on the customer, the order and the issue (CF art. 155 §2 XI; LC 87/1996 art. 13 §2)', () => {
    const items = () => [{ productId: ipiProduct.hash, quantity: 2, unitPrice: '50.00' }];
    const preview = async (salesOrderId: string) => {
      const res = await api().post('/api/fiscal/preview').set(t.headers()).send({ salesOrderId, date: today });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    };

    it('a contributor buys for resale by default: IPI out of the ICMS base, indFinal 0', async () => {
      expect(contributor).to.deep.include({ finalConsumer: null, ieIndicator: 1 });
      const order = await createOrder(t, { customerId: contributor.id, items: items() });
      expect(order.finalConsumer).to.equal(null);
      const doc = await preview(order.id);
      // 2 × 50.00 = 100.00; IPI 10 % = 10.00; ICMS 18 % (SP) on 100.00 = 18.00; vNF 110.00.
      expect(doc.finalConsumer).to.equal(false);
      expect([doc.totals.vBC, doc.totals.vICMS, doc.totals.vIPI, doc.totals.vNF]).to.deep.equal([100, 18, 10, 110]);
    });

    it('the customer flagged final consumer: IPI enters the ICMS base; the order and the issue override it in turn; indFinal in the XML', async () => {
      const patched = await api()
        .patch(`/api/catalog/customers/${contributor.id}`)
        .set(t.headers())
        .send({ version: contributor.version, finalConsumer: true });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.finalConsumer).to.equal(true);
      contributor = patched.body;
      expect(
        (await dataSource.manager.findOneByOrFail(Customer, { companyId: t.companyId, id: decodeId('customer', contributor.id) }))
          .finalConsumer,
      ).to.equal(true);

      const byCustomer = await preview((await createOrder(t, { customerId: contributor.id, items: items() })).id);
      // ICMS base 100.00 + IPI 10.00 = 110.00 × 18 % = 19.80; PIS (1.65 %) and COFINS (7.6 %) on 100.00 − 19.80 = 80.20 → 1.32 and 6.10.
      expect(byCustomer.finalConsumer).to.equal(true);
      expect([
        byCustomer.totals.vBC,
        byCustomer.totals.vICMS,
        byCustomer.totals.vPIS,
        byCustomer.totals.vCOFINS,
        byCustomer.totals.vNF,
      ]).to.deep.equal([110, 19.8, 1.32, 6.1, 110]);

      // The order says resale (false) over the customer's flag.
      const { order, fulfillmentId } = await fulfilled({ customerId: contributor.id, items: items(), finalConsumer: false });
      expect(order.finalConsumer).to.equal(false);
      expect(
        (await dataSource.manager.findOneByOrFail(SalesOrder, { companyId: t.companyId, id: decodeId('sales-order', order.id) }))
          .finalConsumer,
      ).to.equal(false);
      const byOrder = await preview(order.id);
      expect([byOrder.finalConsumer, byOrder.totals.vBC, byOrder.totals.vICMS]).to.deep.equal([false, 100, 18]);

      // And the issue says final (true) over the order: the XML carries indFinal 1 and vBC 110.00.
      const { res, proc } = await issue({ fulfillmentId, finalConsumer: true });
      expect(res.body.status).to.equal('AUTHORIZED');
      expect([
        tag(proc, 'indFinal'),
        tag(proc, 'vBC', 'ICMSTot'),
        tag(proc, 'vICMS', 'ICMSTot'),
        tag(proc, 'vIPI', 'ICMSTot'),
        tag(proc, 'vNF'),
      ]).to.deep.equal(['1', '110.00', '19.80', '10.00', '110.00']);
    });

    it('PATCH of the order changes its flag; null goes back to the customer', async () => {
      const order = await createOrder(t, { customerId: contributor.id, items: items(), finalConsumer: false });
      const patched = await api()
        .patch(`/api/sales-order/${order.id}`)
        .set(t.headers())
        .send({ version: order.version, finalConsumer: null });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.finalConsumer).to.equal(null);
      expect((await preview(order.id)).finalConsumer).to.equal(true);
    });

    it('a non-contributor is always final: 400 on the customer, 422 naming finalConsumer on the order’s NF-e; nothing written; another tenant’s customer is 404', async () => {
      const bad = await api()
        .patch(`/api/catalog/customers/${t.customer.hash}`)
        .set(t.headers())
        .send({ version: t.customer.version, finalConsumer: false });
      expectProblem(bad, 400, 'INVALID_FISCAL_DATA');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include('finalConsumer');
      expect((await dataSource.manager.findOneByOrFail(Customer, { companyId: t.companyId, id: t.customer.id })).finalConsumer).to.equal(
        null,
      );
      expectProblem(
        await api()
          .patch(`/api/catalog/customers/${contributor.id}`)
          .set(other.headers())
          .send({ version: contributor.version, finalConsumer: false }),
        404,
      );
      expectProblem(await api().post('/api/catalog/customers').set(t.headers()).send({ name: 'X', finalConsumer: 'sim' }), 400);

      const { fulfillmentId } = await fulfilled({
        customerId: t.customer.hash,
        items: [{ productId: t.products[0].hash, quantity: 1, unitPrice: '10.50' }],
      });
      const before = await dataSource.manager.countBy(OutboundNfe, { companyId: t.companyId });
      const refused = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId, finalConsumer: false });
      expectProblem(refused, 422, 'FISCAL_DATA_INVALID');
      expect(refused.body.errors.map((e: { path: string }) => e.path)).to.include('finalConsumer');
      expect(await dataSource.manager.countBy(OutboundNfe, { companyId: t.companyId })).to.equal(before);
      expectProblem(await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId, finalConsumer: 1 }), 400);
    });
  });
  describe('row 2: insurance (vSeg) and other expenses (vOutro) on the order, apportioned like freight (MOC 7.0 W06/W15; LC 87/1996 art. 13 §1 II a)', () => {
    const lines = () => [
      { productId: t.products[0].hash, quantity: 3, unitPrice: '10.50' },
      { productId: t.products[1].hash, quantity: 2, unitPrice: '19.90' },
    ];

    it('the order carries them in its totals; the NF-e apportions them by the lines’ value, into the ICMS base and vNF', async () => {
      const { order, fulfillmentId } = await fulfilled({
        customerId: t.customer.hash,
        items: lines(),
        freight: 10,
        insurance: 5,
        otherExpenses: 2.5,
      });
      // 31.50 + 39.80 = 71.30 of goods + 10.00 + 5.00 + 2.50 = 88.80.
      expect([order.freight, order.insurance, order.otherExpenses]).to.deep.equal([10, 5, 2.5]);
      expect(order.totals).to.deep.include({ items: 71.3, freight: 10, insurance: 5, otherExpenses: 2.5, total: 88.8 });
      const row = await dataSource.manager.findOneByOrFail(SalesOrder, { companyId: t.companyId, id: decodeId('sales-order', order.id) });
      expect([row.insurance.toFixed(2), row.otherExpenses.toFixed(2), row.total.toFixed(2)]).to.deep.equal(['5.00', '2.50', '88.80']);

      const preview = await api().post('/api/fiscal/preview').set(t.headers()).send({ salesOrderId: order.id, date: today });
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      // Weights 31.50 : 39.80. Freight 10 → 4.42 / 5.58; insurance 5 → 2.21 / 2.79; other 2.50 → 1.10 / 1.40 (residue on the last).
      expect(preview.body.items.map((i: any) => [i.freight, i.insurance, i.otherExpenses])).to.deep.equal([
        [4.42, 2.21, 1.1],
        [5.58, 2.79, 1.4],
      ]);
      // ICMS 18 % (SP): 39.23 → 7.06; 49.57 → 8.92. vNF 88.80.
      expect(preview.body.items.map((i: any) => [i.icms.base, i.icms.value])).to.deep.equal([
        [39.23, 7.06],
        [49.57, 8.92],
      ]);
      expect(preview.body.totals).to.deep.include({ vSeg: 5, vOutro: 2.5, vFrete: 10, vBC: 88.8, vICMS: 15.98, vNF: 88.8 });

      const { proc } = await issue({ fulfillmentId });
      const det1 = proc.match(/<det nItem="1">[\s\S]*?<\/det>/)![0];
      expect([tag(det1, 'vSeg'), tag(det1, 'vOutro')]).to.deep.equal(['2.21', '1.10']);
      expect([
        tag(proc, 'vSeg', 'ICMSTot'),
        tag(proc, 'vOutro', 'ICMSTot'),
        tag(proc, 'vBC', 'ICMSTot'),
        tag(proc, 'vNF', 'ICMSTot'),
      ]).to.deep.equal(['5.00', '2.50', '88.80', '88.80']);
    });

    it('a partial fulfilment bills its share of them (by the goods’ value), to the cent', async () => {
      const order = await createOrder(t, { customerId: t.customer.hash, items: lines(), freight: 10, insurance: 5, otherExpenses: 2.5 });
      const f = await fulfill(t, order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 3 }]);
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
      const preview = await api().post('/api/fiscal/preview').set(t.headers()).send({ fulfillmentId: f.body.fulfillment.id, date: today });
      // 31.50 of 71.30: freight 4.42, insurance 2.21, other 1.10 → vNF 39.23.
      expect(preview.body.totals).to.deep.include({ vFrete: 4.42, vSeg: 2.21, vOutro: 1.1, vNF: 39.23 });
      const { proc } = await issue({ fulfillmentId: f.body.fulfillment.id });
      expect([tag(proc, 'vSeg', 'ICMSTot'), tag(proc, 'vOutro', 'ICMSTot'), tag(proc, 'vNF', 'ICMSTot')]).to.deep.equal([
        '2.21',
        '1.10',
        '39.23',
      ]);
    });

    it('PATCH reprices the total; negative or malformed amounts are 400 and write nothing; another tenant’s order is 404', async () => {
      const order = await createOrder(t, { customerId: t.customer.hash, items: lines() });
      const patched = await api()
        .patch(`/api/sales-order/${order.id}`)
        .set(t.headers())
        .send({ version: order.version, insurance: 1.25, otherExpenses: 0.75 });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.totals).to.deep.include({ insurance: 1.25, otherExpenses: 0.75, total: 73.3 });
      const count = await dataSource.manager.countBy(SalesOrder, { companyId: t.companyId });
      expectProblem(
        await api().post('/api/sales-order').set(t.headers()).send({ customerId: t.customer.hash, items: lines(), insurance: -1 }),
        400,
      );
      expectProblem(
        await api().post('/api/sales-order').set(t.headers()).send({ customerId: t.customer.hash, items: lines(), otherExpenses: 'muito' }),
        400,
      );
      expect(await dataSource.manager.countBy(SalesOrder, { companyId: t.companyId })).to.equal(count);
      expectProblem(
        await api().patch(`/api/sales-order/${order.id}`).set(other.headers()).send({ version: patched.body.version, insurance: 3 }),
        404,
      );
      const row = await dataSource.manager.findOneByOrFail(SalesOrder, { companyId: t.companyId, id: decodeId('sales-order', order.id) });
      expect(row.insurance.toFixed(2)).to.equal('1.25');
    });
  });
  describe('row 3: PIS/COFINS CST by the operation class (IN RFB 1.009/2010 table 4.3.3; Lei 10.637/2002 art. 3 VIII)', () => {
    const freeBody = (operation: string) => ({
      operation,
      customerId: t.customer.hash,
      date: today,
      items: [{ productId: t.products[0].hash, quantity: 1, unitPrice: 100 }],
    });
    const pisCofins = (body: any) => body.items.map((i: any) => [i.pis.cst, i.pis.base, i.pis.value, i.cofins.cst, i.cofins.value]);

    it('a remessa (BONUS) is no revenue: CST 49 without values; a devolução de venda is an entry with credit in Lucro Real: CST 50', async () => {
      const bonus = await api().post('/api/fiscal/preview').set(t.headers()).send(freeBody('BONUS'));
      expect(bonus.status, JSON.stringify(bonus.body)).to.equal(200);
      expect(pisCofins(bonus.body)).to.deep.equal([['49', 0, 0, '49', 0]]);
      const ret = await api().post('/api/fiscal/preview').set(t.headers()).send(freeBody('RETURN'));
      expect(ret.status, JSON.stringify(ret.body)).to.equal(200);
      // 100.00 − ICMS 18.00 = 82.00; PIS 1.65 % = 1.353 → 1.35; COFINS 7.6 % = 6.232 → 6.23.
      expect(pisCofins(ret.body)).to.deep.equal([['50', 82, 1.35, '50', 6.23]]);
      const sale = await api().post('/api/fiscal/preview').set(t.headers()).send(freeBody('SALE'));
      expect(pisCofins(sale.body)).to.deep.equal([['01', 82, 1.35, '01', 6.23]]);
    });

    it('a rule with the other direction’s CST: 400 on the master-data route (nothing written); a stored one → 422 naming it', async () => {
      const group = await api().get('/api/fiscal/tax-groups?search=REVENDA').set(t.headers());
      const taxGroupId = group.body.data[0].id;
      const before = await dataSource.manager.countBy(FiscalOperationRule, { companyId: t.companyId });
      const bad = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId,
        operation: 'RETURN',
        destination: 'INTERNAL',
        contributor: false,
        validFrom: '2024-01-01',
        cfop: '1202',
        icmsCst: '00',
        pisCst: '01',
        cofinsCst: '01',
      });
      expectProblem(bad, 400, 'INVALID_FISCAL_RULE');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['pisCst', 'cofinsCst']);
      const badExit = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId,
        operation: 'TRANSFER',
        destination: 'INTERNAL',
        contributor: true,
        validFrom: '2024-01-01',
        cfop: '5152',
        icmsCst: '41',
        pisCst: '50',
      });
      expectProblem(badExit, 400, 'INVALID_FISCAL_RULE');
      expect(await dataSource.manager.countBy(FiscalOperationRule, { companyId: t.companyId })).to.equal(before);

      const where = { companyId: t.companyId, taxGroupId: decodeId('tax-group', taxGroupId), operation: 'BONUS' as const };
      await dataSource.manager.update(FiscalOperationRule, where, { pisCst: '50' });
      await fiscalDataChanged(dataSource.manager, t.companyId);
      try {
        const refused = await api().post('/api/fiscal/preview').set(t.headers()).send(freeBody('BONUS'));
        expectProblem(refused, 422, 'FISCAL_DATA_INVALID');
        expect(refused.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['items[0].rule.pisCst']);
      } finally {
        await dataSource.manager.update(FiscalOperationRule, where, { pisCst: null });
        await fiscalDataChanged(dataSource.manager, t.companyId);
      }
    });

    it('our entry NF-e de devolução of a sale carries CST 50 with the credit, never the sale’s 01 (XSD, xmlsec1)', async () => {
      await makePaymentMethod(t, 'CASH', 'CASH');
      const { order, fulfillmentId } = await fulfilled({
        customerId: t.customer.hash,
        items: [{ productId: t.products[0].hash, quantity: 10, unitPrice: '10.50' }],
      });
      const { proc: sale } = await issue({ fulfillmentId });
      // 105.00 − ICMS 18.90 = 86.10: PIS 1.42, COFINS 6.54 under CST 01.
      expect([tag(sale, 'CST', 'PIS'), tag(sale, 'vBC', 'PIS'), tag(sale, 'vPIS', 'PIS'), tag(sale, 'vCOFINS', 'COFINS')]).to.deep.equal([
        '01',
        '86.10',
        '1.42',
        '6.54',
      ]);
      const res = await api()
        .post(`/api/returns/${t.filialHashes[0]}`)
        .set(t.headers())
        .send({
          customerId: t.customer.hash,
          reason: 'Produto com defeito',
          refundMethod: 'CASH',
          items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 3, restock: true }],
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, {
        companyId: t.companyId,
        id: decodeId('invoice', res.body.documents[0].invoiceId),
      });
      const proc = gunzipText(doc.procXmlGz!);
      if (canValidateXsd) expect(xsdErrors(proc), proc).to.equal(null);
      if (canVerifySignature) expect(xmlsecErrors(proc)).to.equal(null);
      // 3 of 10: base 86.10 × 0.3 = 25.83; PIS 1.42 × 0.3 = 0.426 → 0.43; COFINS 6.54 × 0.3 = 1.962 → 1.96.
      expect([
        tag(proc, 'tpNF'),
        tag(proc, 'CST', 'PIS'),
        tag(proc, 'vBC', 'PIS'),
        tag(proc, 'vPIS', 'PIS'),
        tag(proc, 'CST', 'COFINS'),
        tag(proc, 'vCOFINS', 'COFINS'),
      ]).to.deep.equal(['0', '50', '25.83', '0.43', '50', '1.96']);
      expect(proc).to.contain('<PISOutr>');
    });
  });
  describe('row 4: the Simples Nacional statements and the CSOSN 101 credit (LC 123/2006 art. 23; Res. CGSN 140/2018 arts. 59–60)', () => {
    const filialPath = () => `/api/settings/filial/${t.filialHashes[0]}`;
    const setFilial = async (body: Record<string, unknown>) => {
      const current = await api().get(filialPath()).set(t.headers());
      const res = await api()
        .patch(filialPath())
        .set(t.headers())
        .send({ version: current.body.version, ...body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    const lines = () => [
      { productId: t.products[0].hash, quantity: 3, unitPrice: '10.50' },
      { productId: t.products[1].hash, quantity: 2, unitPrice: '19.90' },
    ];
    before(() => setFilial({ taxRegime: 'SIMPLES_NACIONAL', simplesExcessSublimit: false, simplesCreditRate: 1.25, industrial: false }));
    after(() => setFilial({ taxRegime: 'LUCRO_REAL', industrial: true }));

    it('to a contributor buying for resale: CSOSN 101 with the credit in the preview, the XML and the infCpl statement', async () => {
      const { order, fulfillmentId } = await fulfilled({ customerId: contributor.id, items: lines(), finalConsumer: false });
      const preview = await api().post('/api/fiscal/preview').set(t.headers()).send({ salesOrderId: order.id, date: today });
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      // pCredSN 1.25 %: 31.50 → 0.39375 → 0.39; 39.80 → 0.4975 → 0.50; Σ 0.89.
      expect(preview.body.items.map((i: any) => [i.icms.csosn, i.icms.simplesCreditRate, i.icms.simplesCreditValue])).to.deep.equal([
        ['101', 1.25, 0.39],
        ['101', 1.25, 0.5],
      ]);
      expect(preview.body.simplesCredit).to.deep.equal({ rate: 1.25, value: 0.89 });
      const credit =
        'PERMITE O APROVEITAMENTO DO CRÉDITO DE ICMS NO VALOR DE R$ 0,89; CORRESPONDENTE À ALÍQUOTA DE 1,25%, NOS TERMOS DO ART. 23 DA LC 123/2006';
      expect(preview.body.statements).to.deep.equal([
        'DOCUMENTO EMITIDO POR ME OU EPP OPTANTE PELO SIMPLES NACIONAL',
        'NÃO GERA DIREITO A CRÉDITO FISCAL DE IPI',
        credit,
      ]);

      const { proc } = await issue({ fulfillmentId, notes: 'Pedido 77' });
      expect(tag(proc, 'CRT')).to.equal('1');
      expect([tag(proc, 'pCredSN'), tag(proc, 'vCredICMSSN')]).to.deep.equal(['1.2500', '0.39']);
      expect(tag(proc, 'infCpl')).to.match(
        new RegExp(
          `^Pedido 77 \\| DOCUMENTO EMITIDO POR ME OU EPP OPTANTE PELO SIMPLES NACIONAL \\| NÃO GERA DIREITO A CRÉDITO FISCAL DE IPI \\| ${credit.replace(/[$().]/g, '\\$&')} \\| Valor aproximado`,
        ),
      );
    });

    it('to a final consumer (a contributor for its own use, or a non-contributor): CSOSN 102, no credit, the ME/EPP statements only', async () => {
      for (const [customerId, finalConsumer] of [
        [contributor.id, true],
        [t.customer.hash, undefined],
      ] as const) {
        const { order, fulfillmentId } = await fulfilled({
          customerId,
          items: lines(),
          ...(finalConsumer !== undefined ? { finalConsumer } : {}),
        });
        const preview = await api().post('/api/fiscal/preview').set(t.headers()).send({ salesOrderId: order.id, date: today });
        expect(preview.body.items.map((i: any) => [i.icms.csosn, i.icms.simplesCreditValue])).to.deep.equal([
          ['102', null],
          ['102', null],
        ]);
        expect([preview.body.simplesCredit, preview.body.statements]).to.deep.equal([
          null,
          ['DOCUMENTO EMITIDO POR ME OU EPP OPTANTE PELO SIMPLES NACIONAL', 'NÃO GERA DIREITO A CRÉDITO FISCAL DE IPI'],
        ]);
        const { proc } = await issue({ fulfillmentId });
        expect(proc).to.contain('<ICMSSN102>');
        expect(tag(proc, 'infCpl')).to.match(
          /^DOCUMENTO EMITIDO POR ME OU EPP OPTANTE PELO SIMPLES NACIONAL \| NÃO GERA DIREITO A CRÉDITO FISCAL DE IPI \| Valor aproximado/,
        );
      }
    });
  });
  describe('row 5: ST by the pair of states × NCM/CEST (LC 87/1996 arts. 8–9; Convênio ICMS 142/2018)', () => {
    let stProduct: { hash: string; id: number };
    let noCest: { hash: string; id: number };
    let rj: string;
    let mg: string;
    const makeCustomerIn = async (
      name: string,
      uf: string,
      ie: string,
      municipalityCode: string,
      municipalityName: string,
      document: string,
    ) => {
      const res = await api()
        .post('/api/catalog/customers')
        .set(t.headers())
        .send({
          name,
          document,
          personType: 'PJ',
          ieIndicator: 1,
          stateRegistration: ie,
          email: 'fiscal@cliente.com.br',
          address: { street: 'Rua Um', number: '10', district: 'Centro', municipalityCode, municipalityName, uf, postalCode: '20040002' },
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.id as string;
    };
    const product = async (cest: string | null, taxGroupId: string) => {
      const p = await makeProduct(t, { ncm: '22030000' } as never);
      const res = await api()
        .patch(`/api/catalog/products/${p.hash}`)
        .set(t.headers())
        .send({ version: p.version, taxGroupId, ...(cest ? { cest } : {}) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await addStock(t, 0, p.id, 1000, '5');
      return { hash: p.hash, id: p.id };
    };
    const preview = (customerId: string, productId: string) =>
      api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({ customerId, date: today, items: [{ productId, quantity: 10, unitPrice: 10 }] });

    before(async () => {
      const group = await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code: 'CERVEJA45', name: 'Cerveja (ST)' });
      const rule = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId: group.body.id,
        operation: 'SALE',
        destination: 'INTERSTATE',
        contributor: true,
        validFrom: '2020-01-01',
        cfop: '6403',
        icmsCst: '10',
        csosn: '201',
        stMode: 'AGREEMENT',
        ipiCst: '53',
      });
      expect(rule.status, JSON.stringify(rule.body)).to.equal(201);
      stProduct = await product('0302100', group.body.id);
      noCest = await product(null, group.body.id);
      rj = await makeCustomerIn('Distribuidora Carioca Ltda', 'RJ', '12345674', '3304557', 'Rio de Janeiro', '04252011000110');
      mg = await makeCustomerIn('Atacado Mineiro Ltda', 'MG', '0623079040081', '3106200', 'Belo Horizonte', '60701190000104');
      for (const body of [
        {
          originUf: 'SP',
          destinationUf: 'RJ',
          ncmPrefix: '2203',
          cest: '0302100',
          mva: 40,
          validFrom: '2020-01-01',
          source: 'Protocolo ICMS 11/1991',
        },
        {
          originUf: 'SP',
          destinationUf: 'RJ',
          ncmPrefix: '22',
          mva: 30,
          validFrom: '2020-01-01',
          source: 'Protocolo ICMS 11/1991 (bebidas)',
        },
      ]) {
        const res = await api().post('/api/fiscal/st-agreements').set(t.headers()).send(body);
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
      }
    });

    it('SP → RJ under the protocol: the CEST agreement’s MVA 40 % adjusted to 54 % by RJ’s 20 %, FCP-ST 2 %, CEST on the item; the NF-e carries ICMS10', async () => {
      const res = await preview(rj, stProduct.hash);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [item] = res.body.items;
      // MVA ajustada = (1.40 × (1 − 0.12) / (1 − 0.20)) − 1 = 54 %; base ST 100 × 1.54 = 154.00;
      // ST 154 × 20 % = 30.80 − own 12.00 = 18.80; FCP-ST 154 × 2 % = 3.08; vNF 100 + 18.80 + 3.08 = 121.88.
      expect([
        item.cfop,
        item.cest,
        item.icms.cst,
        item.icms.value,
        item.icms.st.mva,
        item.icms.st.base,
        item.icms.st.value,
        item.icms.st.fcpValue,
      ]).to.deep.equal(['6403', '0302100', '10', 12, 54, 154, 18.8, 3.08]);
      expect(item.rule.ratesSource).to.contain('ST SP→RJ NCM 2203 CEST 0302100: Protocolo ICMS 11/1991');
      expect(res.body.totals).to.deep.include({ vST: 18.8, vFCPST: 3.08, vNF: 121.88 });

      const order = await createOrder(t, {
        customerId: rj,
        items: [{ productId: stProduct.hash, quantity: 10, unitPrice: 10 }],
        finalConsumer: false,
      });
      const f = await fulfill(t, order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 10 }]);
      expect(f.status, JSON.stringify(f.body)).to.equal(201);
      const { proc } = await issue({ fulfillmentId: f.body.fulfillment.id });
      expect([
        tag(proc, 'CEST'),
        tag(proc, 'CFOP'),
        tag(proc, 'pMVAST'),
        tag(proc, 'vBCST'),
        tag(proc, 'vICMSST'),
        tag(proc, 'vFCPST'),
        tag(proc, 'vNF', 'ICMSTot'),
      ]).to.deep.equal(['0302100', '6403', '54.0000', '154.00', '18.80', '3.08', '121.88']);
      expect(proc).to.contain('<ICMS10>');
    });

    it('SP → MG, no agreement: no ST — CST 00 and CFOP 6102 at the interstate 12 %', async () => {
      const res = await preview(mg, stProduct.hash);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [item] = res.body.items;
      expect([item.cfop, item.icms.cst, item.icms.rate, item.icms.value, item.icms.st]).to.deep.equal(['6102', '00', 12, 12, null]);
      expect(res.body.totals).to.deep.include({ vST: 0, vNF: 100 });
    });

    it('an ST item without its CEST → 422 naming product.cest; bad agreements → 400, a duplicate → 409, another tenant’s → 404', async () => {
      const refused = await preview(rj, noCest.hash);
      expectProblem(refused, 422, 'FISCAL_DATA_INVALID');
      expect(refused.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['items[0].product.cest']);
      const base = {
        originUf: 'SP',
        destinationUf: 'RJ',
        ncmPrefix: '2203',
        cest: '0302100',
        mva: 40,
        validFrom: '2020-01-01',
        source: 'Protocolo ICMS 11/1991',
      };
      expectProblem(
        await api()
          .post('/api/fiscal/st-agreements')
          .set(t.headers())
          .send({ ...base, destinationUf: 'XX' }),
        400,
        'INVALID_ST_AGREEMENT',
      );
      expectProblem(
        await api()
          .post('/api/fiscal/st-agreements')
          .set(t.headers())
          .send({ ...base, ncmPrefix: '2' }),
        400,
      );
      expectProblem(await api().post('/api/fiscal/st-agreements').set(t.headers()).send(base), 409, 'ST_AGREEMENT_EXISTS');
      const list = await api().get('/api/fiscal/st-agreements?search=RJ').set(t.headers());
      expect(list.status).to.equal(200);
      expect(list.body.data.map((a: { mva: number }) => a.mva).sort()).to.deep.equal([30, 40]);
      const [first] = list.body.data;
      expectProblem(await api().get(`/api/fiscal/st-agreements/${first.id}`).set(other.headers()), 404, 'ST_AGREEMENT_NOT_FOUND');
      const patched = await api()
        .patch(`/api/fiscal/st-agreements/${first.id}`)
        .set(t.headers())
        .send({ version: first.version, validTo: '2019-01-01' });
      expectProblem(patched, 400, 'INVALID_ST_AGREEMENT');
      expectProblem(
        await api()
          .post('/api/fiscal/operations')
          .set(t.headers())
          .send({
            taxGroupId: (await api().get('/api/fiscal/tax-groups?search=CERVEJA45').set(t.headers())).body.data[0].id,
            operation: 'SALE',
            destination: 'INTERNAL',
            contributor: true,
            validFrom: '2020-01-01',
            cfop: '5102',
            icmsCst: '00',
            stMode: 'AGREEMENT',
          }),
        400,
        'INVALID_FISCAL_RULE',
      );
    });
  });
  describe('row 6: ICMS desonerado and cBenef carried by the rules (MOC 7.0 N27a–N28b; NT 2023.004)', () => {
    let exempt: { hash: string; id: number };
    let reduced: { hash: string; id: number };
    let exemptGroup: string;
    const groupWith = async (code: string, rule: Record<string, unknown>) => {
      const group = await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code, name: code });
      const res = await api()
        .post('/api/fiscal/operations')
        .set(t.headers())
        .send({
          taxGroupId: group.body.id,
          operation: 'SALE',
          destination: 'INTERNAL',
          contributor: false,
          validFrom: '2020-01-01',
          ipiCst: '53',
          ...rule,
        });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return group.body.id as string;
    };
    const productOf = async (taxGroupId: string) => {
      const p = await makeProduct(t, { ncm: '30049099' } as never);
      const res = await api().patch(`/api/catalog/products/${p.hash}`).set(t.headers()).send({ version: p.version, taxGroupId });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      await addStock(t, 0, p.id, 100, '40');
      return { hash: p.hash, id: p.id };
    };
    const items = () => [
      { productId: exempt.hash, quantity: 1, unitPrice: 100 },
      { productId: reduced.hash, quantity: 1, unitPrice: 100 },
    ];

    before(async () => {
      exemptGroup = await groupWith('ISENTO45', {
        cfop: '5102',
        icmsCst: '40',
        reliefReason: 8,
        reliefDeducted: true,
        benefitCode: 'SP810001',
      });
      exempt = await productOf(exemptGroup);
      reduced = await productOf(await groupWith('REDUZ45', { cfop: '5102', icmsCst: '20', icmsBaseReduction: 40, reliefReason: 9 }));
    });

    it('exempt (CST 40, deducted) and reduced (CST 20) lines: vICMSDeson, motDesICMS, indDeduzDeson and cBenef in preview and XML', async () => {
      const res = await api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({ customerId: t.customer.hash, date: today, items: items() });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [a, b] = res.body.items;
      // CST 40: the ICMS the sale would owe, 100 × 18 % = 18.00, relieved and taken off the line (indDeduzDeson 1): 82.00.
      expect([a.icms.cst, a.icms.value, a.icms.relief, a.benefitCode, a.total]).to.deep.equal([
        '40',
        0,
        { value: 18, reason: 8, deducted: true },
        'SP810001',
        82,
      ]);
      // CST 20, 40 % off the base: 60.00 × 18 % = 10.80; relieved 18.00 − 10.80 = 7.20, not deducted: the line stays 100.00.
      expect([b.icms.cst, b.icms.base, b.icms.value, b.icms.relief, b.benefitCode, b.total]).to.deep.equal([
        '20',
        60,
        10.8,
        { value: 7.2, reason: 9, deducted: false },
        null,
        100,
      ]);
      expect(res.body.totals).to.deep.include({ vICMSDeson: 25.2, vICMS: 10.8, vNF: 182 });

      const { fulfillmentId } = await fulfilled({ customerId: t.customer.hash, items: items() });
      const { proc } = await issue({ fulfillmentId });
      const [det1, det2] = [1, 2].map((n) => proc.match(new RegExp(`<det nItem="${n}">[\\s\\S]*?</det>`))![0]);
      expect([tag(det1, 'cBenef'), tag(det1, 'vICMSDeson'), tag(det1, 'motDesICMS'), tag(det1, 'indDeduzDeson')]).to.deep.equal([
        'SP810001',
        '18.00',
        '8',
        '1',
      ]);
      expect(det1).to.contain('<ICMS40>');
      expect([tag(det2, 'cBenef'), tag(det2, 'vICMSDeson'), tag(det2, 'motDesICMS'), tag(det2, 'indDeduzDeson')]).to.deep.equal([
        null,
        '7.20',
        '9',
        '0',
      ]);
      expect([tag(proc, 'vICMSDeson', 'ICMSTot'), tag(proc, 'vNF', 'ICMSTot')]).to.deep.equal(['25.20', '182.00']);
    });

    it('what a rule cannot carry: motDesICMS of another CST or on a CST without the group → 400 naming it; a stored one → 422', async () => {
      const bad = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId: exemptGroup,
        operation: 'SALE',
        destination: 'INTERNAL',
        contributor: true,
        validFrom: '2020-01-01',
        cfop: '5102',
        icmsCst: '20',
        icmsBaseReduction: 10,
        reliefReason: 8,
        ipiCst: '53',
      });
      expectProblem(bad, 400, 'INVALID_FISCAL_RULE');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['reliefReason']);
      const onTaxed = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId: exemptGroup,
        operation: 'SALE',
        destination: 'INTERNAL',
        contributor: true,
        validFrom: '2020-01-01',
        cfop: '5102',
        icmsCst: '00',
        reliefReason: 9,
        ipiCst: '53',
      });
      expectProblem(onTaxed, 400, 'INVALID_FISCAL_RULE');
      const where = { companyId: t.companyId, taxGroupId: decodeId('tax-group', exemptGroup) };
      await dataSource.manager.update(FiscalOperationRule, where, { icmsCst: '00' });
      await fiscalDataChanged(dataSource.manager, t.companyId);
      try {
        const refused = await api()
          .post('/api/fiscal/preview')
          .set(t.headers())
          .send({ customerId: t.customer.hash, date: today, items: [{ productId: exempt.hash, quantity: 1, unitPrice: 100 }] });
        expectProblem(refused, 422, 'FISCAL_DATA_INVALID');
        expect(refused.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['items[0].rule.reliefReason']);
      } finally {
        await dataSource.manager.update(FiscalOperationRule, where, { icmsCst: '40' });
        await fiscalDataChanged(dataSource.manager, t.companyId);
      }
    });
  });
  describe('row 7: the Lei 12.741 IBPT table by UF, its flag and its text (Lei 12.741/2012 art. 1; Decreto 8.264/2014 art. 2)', () => {
    const year = today.slice(0, 4);
    const header =
      'codigo;ex;tipo;descricao;nacionalfederal;importadosfederal;estadual;municipal;vigenciainicio;vigenciafim;chave;versao;fonte';
    /** A small IBPT table as published: the two goods sold below, an NBS service row (tipo 1, not goods), a quoted description. */
    const csv = (key: string, version: string) =>
      [
        header,
        `10063021;;0;"Arroz semibranqueado; polido";4.25;6.10;7.00;0.00;01/01/${year};31/12/${year};${key};${version};IBPT/empresometro.com.br`,
        `94036000;;0;Moveis de madeira para quartos;13.45;20.00;18.00;0.00;01/01/${year};31/12/${year};${key};${version};IBPT/empresometro.com.br`,
        `0101;;1;Servicos de construcao;13.45;15.45;0.00;2.90;01/01/${year};31/12/${year};${key};${version};IBPT/empresometro.com.br`,
      ].join('\r\n') + '\r\n';
    const readiness = async () => {
      const res = await api().get(`/api/settings/filial/${t.filialHashes[0]}/readiness`).set(t.headers());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.checks.find((c: { code: string }) => c.code === 'APPROXIMATE_TAXES');
    };
    const rowsOf = (uf: string) =>
      dataSource.manager.find(ApproximateTax, { where: { companyId: t.companyId, uf }, order: { ncm: 'ASC' } });
    // To the tenant's non-contributor customer (indFinal 1): 3 × 19.90 of rice (NCM 10063021) and 1 × 50.00 of the furniture (94036000).
    const consumerSale = () =>
      fulfilled({
        customerId: t.customer.hash,
        items: [
          { productId: t.products[1].hash, quantity: 3, unitPrice: '19.90' },
          { productId: ipiProduct.hash, quantity: 1, unitPrice: '50.00' },
        ],
      });

    it('without a table: the consumer NF-e is flagged on the answer, declares no figure in infCpl, and the readiness check warns', async () => {
      expect(await readiness()).to.deep.include({
        status: 'WARNING',
        fix: 'POST /api/fiscal/approximate-taxes?uf=SP',
        documents: ['NFE', 'NFCE'],
      });
      const { fulfillmentId } = await consumerSale();
      const { res, proc } = await issue({ fulfillmentId });
      expect(tag(proc, 'indFinal')).to.equal('1');
      expect(res.body.warnings).to.deep.equal([
        'No Lei 12.741 approximate-tax table is loaded for SP: vTotTrib is 0 (POST /fiscal/approximate-taxes loads the IBPT table).',
      ]);
      expect(tag(proc, 'vTotTrib', 'ICMSTot')).to.equal('0.00');
      expect(tag(proc, 'infCpl')).to.equal('Valor aproximado dos tributos não informado: sem tabela IBPT vigente (Lei 12.741/2012)');
      expect(res.body.additionalInfo).to.equal(tag(proc, 'infCpl'));
    });

    it('bad tables → 400 naming the line (or 415), nothing written', async () => {
      const post = () => api().post('/api/fiscal/approximate-taxes').set(t.headers());
      const badHeader = await post().query({ uf: 'SP' }).set('Content-Type', 'text/csv').send('ncm;aliquota\r\n10063021;4.25\r\n');
      expectProblem(badHeader, 400, 'VALIDATION_ERROR');
      expect(badHeader.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['csv:1']);
      const badRate = await post()
        .query({ uf: 'SP' })
        .set('Content-Type', 'text/csv')
        .send(csv('A1B2C3', '26.2.B').replace('4.25;6.10', 'quatro;6.10'));
      expectProblem(badRate, 400, 'VALIDATION_ERROR');
      expect(badRate.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['csv:2']);
      const twoTables = await post().send({
        uf: 'SP',
        csv: csv('A1B2C3', '26.2.B').replace(
          `;A1B2C3;26.2.B;IBPT/empresometro.com.br\r\n0101`,
          `;FFFFFF;26.2.B;IBPT/empresometro.com.br\r\n0101`,
        ),
      });
      expectProblem(twoTables, 400, 'VALIDATION_ERROR');
      expect(twoTables.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['csv:3']);
      expectProblem(
        await post().send({
          uf: 'SP',
          csv: csv('A1B2C3', '26.2.B'),
          rows: [{ ncm: '10063021', federalNationalRate: 1, federalImportedRate: 1, stateRate: 1, municipalRate: 0 }],
        }),
        400,
        'VALIDATION_ERROR',
      );
      expectProblem(await post().send({ uf: 'XX', csv: csv('A1B2C3', '26.2.B') }), 400, 'VALIDATION_ERROR');
      expectProblem(await post().send({ csv: csv('A1B2C3', '26.2.B') }), 400, 'VALIDATION_ERROR');
      expectProblem(
        await post().send({
          uf: 'SP',
          rows: [{ ncm: '10063021', federalNationalRate: 1, federalImportedRate: 1, stateRate: 1, municipalRate: 0 }],
        }),
        400,
        'VALIDATION_ERROR',
      );
      expectProblem(
        await post().query({ uf: 'SP' }).set('Content-Type', 'text/plain').send(csv('A1B2C3', '26.2.B')),
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      );
      expect(await dataSource.manager.countBy(ApproximateTax, { companyId: t.companyId })).to.equal(0);
    });

    it('the IBPT CSV of SP loaded as text/csv: the consumer NF-e declares its parts, source, key and version; the readiness check is OK', async () => {
      const loaded = await api()
        .post('/api/fiscal/approximate-taxes')
        .query({ uf: 'SP' })
        .set(t.headers())
        .set('Content-Type', 'text/csv')
        .send(csv('A1B2C3', '26.2.B'));
      expect(loaded.status, JSON.stringify(loaded.body)).to.equal(201);
      expect(loaded.body).to.deep.equal({
        uf: 'SP',
        rows: 2,
        tableVersion: '26.2.B',
        tableKey: 'A1B2C3',
        source: 'IBPT/empresometro.com.br',
        validFrom: `${year}-01-01`,
        validTo: `${year}-12-31`,
      });
      expect(
        (await rowsOf('SP')).map((r) => [
          r.ncm,
          r.federalNationalRate.toFixed(2),
          r.federalImportedRate.toFixed(2),
          r.stateRate.toFixed(2),
          r.tableKey,
        ]),
      ).to.deep.equal([
        ['10063021', '4.25', '6.10', '7.00', 'A1B2C3'],
        ['94036000', '13.45', '20.00', '18.00', 'A1B2C3'],
      ]);
      expect(
        (await dataSource.manager.findBy(OutboxEvent, { companyId: t.companyId, type: 'fiscal-approximate-tax.loaded' })).length,
      ).to.equal(1);
      expect(await readiness()).to.deep.include({
        status: 'OK',
        message: `IBPT table A1B2C3 26.2.B of SP, valid until ${year}-12-31`,
        fix: null,
      });

      const { fulfillmentId } = await consumerSale();
      const { res, proc } = await issue({ fulfillmentId });
      // Rice 59.70 (national origin): federal 4.25 % = 2.53725 → 2.54, state 7 % = 4.179 → 4.18 → vTotTrib 6.72.
      // Furniture 50.00: federal 13.45 % = 6.725 → 6.73, state 18 % = 9.00 → 15.73. Σ federal 9.27, state 13.18, vTotTrib 22.45.
      const items = [...proc.matchAll(/<imposto><vTotTrib>([^<]*)<\/vTotTrib>/g)].map((m) => m[1]);
      expect(items).to.deep.equal(['6.72', '15.73']);
      expect(tag(proc, 'vTotTrib', 'ICMSTot')).to.equal('22.45');
      expect(tag(proc, 'infCpl')).to.equal(
        'Trib aprox R$ 9,27 Federal, R$ 13,18 Estadual Fonte: IBPT/empresometro.com.br A1B2C3 26.2.B (Lei 12.741/2012)',
      );
      expect(res.body.warnings).to.deep.equal([]);
      expect(res.body.totals.vTotTrib).to.equal(22.45);
    });

    it('one table per UF: RJ’s (JSON { uf, csv }) leaves SP’s; SP’s replaced by one out of force → the readiness check and the preview warn, vTotTrib 0', async () => {
      const rj = await api()
        .post('/api/fiscal/approximate-taxes')
        .set(t.headers())
        .send({ uf: 'RJ', csv: csv('R9R9R9', '26.2.B') });
      expect(rj.status, JSON.stringify(rj.body)).to.equal(201);
      expect([(await rowsOf('SP')).length, (await rowsOf('RJ')).length]).to.deep.equal([2, 2]);
      // Another tenant loading its SP table touches nothing of this one.
      const others = await api()
        .post('/api/fiscal/approximate-taxes')
        .set(other.headers())
        .send({ uf: 'SP', csv: csv('OTHER1', '26.1.A') });
      expect(others.status, JSON.stringify(others.body)).to.equal(201);
      expect((await rowsOf('SP')).map((r) => r.tableKey)).to.deep.equal(['A1B2C3', 'A1B2C3']);

      const old = await api()
        .post('/api/fiscal/approximate-taxes')
        .set(t.headers())
        .send({
          uf: 'SP',
          tableVersion: '20.1.A',
          tableKey: 'OLD',
          source: 'IBPT',
          validFrom: '2020-01-01',
          validTo: '2020-06-30',
          rows: [{ ncm: '10063021', federalNationalRate: 4.25, federalImportedRate: 6.1, stateRate: 7, municipalRate: 0 }],
        });
      expect(old.status, JSON.stringify(old.body)).to.equal(201);
      expect((await rowsOf('SP')).map((r) => [r.ncm, r.tableKey])).to.deep.equal([['10063021', 'OLD']]);
      expect((await rowsOf('RJ')).length).to.equal(2);
      expect(await readiness()).to.deep.include({
        status: 'WARNING',
        message:
          'The IBPT table of SP is out of force: consumer documents cannot declare the Lei 12.741 approximate taxes until a current one is loaded',
      });
      const preview = await api()
        .post('/api/fiscal/preview')
        .set(t.headers())
        .send({ customerId: t.customer.hash, date: today, items: [{ productId: t.products[1].hash, quantity: 1, unitPrice: 10 }] });
      expect(preview.status, JSON.stringify(preview.body)).to.equal(200);
      expect([preview.body.totals.vTotTrib, preview.body.warnings]).to.deep.equal([
        0,
        ['NCM 10063021 (item 1) is not in the Lei 12.741 table in force: its vTotTrib is 0.'],
      ]);
    });
  });
});
