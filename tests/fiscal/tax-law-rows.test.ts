import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { OutboundNfe } from '../../src/modules/invoices/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/invoices/invoice-store';
import { SalesOrder } from '../../src/modules/sales-order/entities/sales-order.entity';
import { api } from '../support/api';
import { addStock, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { createOrder, fulfill } from '../sales-order/support';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { invoiceTenant, InvoiceTenant } from '../invoices/support';

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
      order.items.map((i: { salesOrderItemId: string; quantity: number }) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
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
      const rule = await api()
        .post('/api/fiscal/operations')
        .set(t.headers())
        .send({
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
    const patched = await api().patch(`/api/catalog/products/${p.hash}`).set(t.headers()).send({ version: p.version, taxGroupId: group.body.id });
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
        address: { street: 'Rua Vergueiro', number: '900', district: 'Liberdade', municipalityCode: '3550308', municipalityName: 'São Paulo', uf: 'SP', postalCode: '01504000' },
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
      const patched = await api().patch(`/api/catalog/customers/${contributor.id}`).set(t.headers()).send({ version: contributor.version, finalConsumer: true });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.finalConsumer).to.equal(true);
      contributor = patched.body;
      expect((await dataSource.manager.findOneByOrFail(Customer, { companyId: t.companyId, id: decodeId('customer', contributor.id) })).finalConsumer).to.equal(true);

      const byCustomer = await preview((await createOrder(t, { customerId: contributor.id, items: items() })).id);
      // ICMS base 100.00 + IPI 10.00 = 110.00 × 18 % = 19.80; PIS (1.65 %) and COFINS (7.6 %) on 100.00 − 19.80 = 80.20 → 1.32 and 6.10.
      expect(byCustomer.finalConsumer).to.equal(true);
      expect([byCustomer.totals.vBC, byCustomer.totals.vICMS, byCustomer.totals.vPIS, byCustomer.totals.vCOFINS, byCustomer.totals.vNF]).to.deep.equal([110, 19.8, 1.32, 6.1, 110]);

      // The order says resale (false) over the customer's flag.
      const { order, fulfillmentId } = await fulfilled({ customerId: contributor.id, items: items(), finalConsumer: false });
      expect(order.finalConsumer).to.equal(false);
      expect((await dataSource.manager.findOneByOrFail(SalesOrder, { companyId: t.companyId, id: decodeId('sales-order', order.id) })).finalConsumer).to.equal(false);
      const byOrder = await preview(order.id);
      expect([byOrder.finalConsumer, byOrder.totals.vBC, byOrder.totals.vICMS]).to.deep.equal([false, 100, 18]);

      // And the issue says final (true) over the order: the XML carries indFinal 1 and vBC 110.00.
      const { res, proc } = await issue({ fulfillmentId, finalConsumer: true });
      expect(res.body.status).to.equal('AUTHORIZED');
      expect([tag(proc, 'indFinal'), tag(proc, 'vBC', 'ICMSTot'), tag(proc, 'vICMS', 'ICMSTot'), tag(proc, 'vIPI', 'ICMSTot'), tag(proc, 'vNF')]).to.deep.equal([
        '1',
        '110.00',
        '19.80',
        '10.00',
        '110.00',
      ]);
    });

    it('PATCH of the order changes its flag; null goes back to the customer', async () => {
      const order = await createOrder(t, { customerId: contributor.id, items: items(), finalConsumer: false });
      const patched = await api().patch(`/api/sales-order/${order.id}`).set(t.headers()).send({ version: order.version, finalConsumer: null });
      expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
      expect(patched.body.finalConsumer).to.equal(null);
      expect((await preview(order.id)).finalConsumer).to.equal(true);
    });

    it('a non-contributor is always final: 400 on the customer, 422 naming finalConsumer on the order’s NF-e; nothing written; another tenant’s customer is 404', async () => {
      const bad = await api().patch(`/api/catalog/customers/${t.customer.hash}`).set(t.headers()).send({ version: t.customer.version, finalConsumer: false });
      expectProblem(bad, 400, 'INVALID_FISCAL_DATA');
      expect(bad.body.errors.map((e: { path: string }) => e.path)).to.include('finalConsumer');
      expect((await dataSource.manager.findOneByOrFail(Customer, { companyId: t.companyId, id: t.customer.id })).finalConsumer).to.equal(null);
      expectProblem(await api().patch(`/api/catalog/customers/${contributor.id}`).set(other.headers()).send({ version: contributor.version, finalConsumer: false }), 404);
      expectProblem(await api().post('/api/catalog/customers').set(t.headers()).send({ name: 'X', finalConsumer: 'sim' }), 400);

      const { fulfillmentId } = await fulfilled({ customerId: t.customer.hash, items: [{ productId: t.products[0].hash, quantity: 1, unitPrice: '10.50' }] });
      const before = await dataSource.manager.countBy(OutboundNfe, { companyId: t.companyId });
      const refused = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId, finalConsumer: false });
      expectProblem(refused, 422, 'FISCAL_DATA_INVALID');
      expect(refused.body.errors.map((e: { path: string }) => e.path)).to.include('finalConsumer');
      expect(await dataSource.manager.countBy(OutboundNfe, { companyId: t.companyId })).to.equal(before);
      expectProblem(await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId, finalConsumer: 1 }), 400);
    });
  });
});
