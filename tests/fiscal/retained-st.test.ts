import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { gunzipText } from '../../src/modules/outbound-nfe/invoice-store';
import { api } from '../support/api';
import { addStock, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { createOrder, fulfill } from '../sales-order/support';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { invoiceTenant, InvoiceTenant } from '../invoices/support';
import { confirm, createDraft, draftBody, item } from '../entry-document/support';
import { counterTenant } from '../nfce/support';
import { buildNfe } from '../support/nfe-builder';
import { NFE, uploadConsulted } from '../nfe/nfe-support';

/*
 * Issue 45, row 8b (docs/decisions/tax-law-rows.md): goods bought with ICMS-ST from a substitute and resold
 * with CST 60 (CRT 3) or CSOSN 500 (Simples) declare the ST retained earlier — MOC 7.0 N26–N27d (vBCSTRet,
 * pST, vICMSSubstituto, vICMSSTRet; vBCFCPSTRet, pFCPSTRet, vFCPSTRet; NT 2018.005) — from the last
 * confirmed entry of the product at the filial, in proportion to the quantity sold (stock units), in
 * POST /fiscal/preview and in the issued NF-e, whose nfeProc validates against PL_010 and verifies.
 */

/** The first `<name>` text inside `<scope>`. */
const tag = (xml: string, name: string, scope: string): string | null => {
  const within = xml.match(new RegExp(`<${scope}[ >][\\s\\S]*?</${scope}>`))?.[0] ?? '';
  return within.match(new RegExp(`<${name}>([^<]*)</${name}>`))?.[1] ?? null;
};
const RETAINED_TAGS = ['vBCSTRet', 'pST', 'vICMSSubstituto', 'vICMSSTRet', 'vBCFCPSTRet', 'pFCPSTRet', 'vFCPSTRet'];

describe('Retained ST on resale, CST 60 / CSOSN 500 (issue 45 row 8b; MOC 7.0 N26–N27d)', function () {
  this.timeout(90_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let groupId: string;
  const today = businessToday();

  const stProduct = async (tenant: TestTenant, taxGroupId: string | null) => {
    const p = await makeProduct(tenant, { ncm: '22030000' } as never);
    if (taxGroupId) {
      const res = await api()
        .patch(`/api/catalog/products/${p.hash}`)
        .set(tenant.headers())
        .send({ version: p.version, taxGroupId, cest: '0302100' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    await addStock(tenant, 0, p.id, 1000, '5');
    return p;
  };
  /** An entry of the goods bought with ST from a substitute (CST 10), confirmed. */
  const buyWithSt = async (
    tenant: TestTenant,
    productId: string,
    spec: {
      entryDate: string;
      unit?: string;
      quantity: number;
      unitPrice?: number;
      conversionFactor?: number;
      icms: object;
      icmsSt: object;
    },
  ) => {
    const d = await createDraft(
      tenant,
      draftBody({
        entryDate: spec.entryDate,
        issueDate: spec.entryDate,
        items: [
          item({
            productId,
            unit: spec.unit ?? 'UN',
            quantity: spec.quantity,
            unitPrice: spec.unitPrice ?? 100,
            ...(spec.conversionFactor ? { conversionFactor: spec.conversionFactor } : {}),
            cfop: '5403',
            taxes: { icms: spec.icms, icmsSt: spec.icmsSt },
          }),
        ],
      }),
    );
    const res = await confirm(tenant, d.id);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return d;
  };
  const preview = (productId: string, quantity: number) =>
    api()
      .post('/api/fiscal/preview')
      .set(t.headers())
      .send({ customerId: t.customer.hash, date: today, items: [{ productId, quantity, unitPrice: 150 }] });
  const issueSale = async (productId: string, quantity: number) => {
    const order = await createOrder(t, { customerId: t.customer.hash, items: [{ productId, quantity, unitPrice: 150 }] });
    const f = await fulfill(t, order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity }]);
    expect(f.status, JSON.stringify(f.body)).to.equal(201);
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId: f.body.fulfillment.id });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const doc = await dataSource.manager.findOneByOrFail(OutboundNfe, { companyId: t.companyId, id: decodeId('invoice', res.body.id) });
    const proc = gunzipText(doc.procXmlGz!);
    if (canValidateXsd) expect(xsdErrors(proc), proc).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(proc)).to.equal(null);
    return proc;
  };

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
    const group = await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code: 'BEBST8B', name: 'Bebidas com ST retido' });
    expect(group.status, JSON.stringify(group.body)).to.equal(201);
    groupId = group.body.id;
    for (const contributor of [true, false]) {
      const rule = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId: groupId,
        operation: 'SALE',
        destination: 'INTERNAL',
        contributor,
        validFrom: '2020-01-01',
        cfop: '5405',
        icmsCst: '60',
        csosn: '500',
        stMode: 'ALREADY_TAXED',
      });
      expect(rule.status, JSON.stringify(rule.body)).to.equal(201);
    }
  });

  it('CST 60 (Lucro Real): the last confirmed entry’s ST in proportion to the quantity sold, in the preview and ICMS60; the older entry is not used', async () => {
    const p = await stProduct(t, groupId);
    // An older entry (20 units, vBCST 2,600.00) must lose to the latest one.
    await buyWithSt(t, p.hash, {
      entryDate: '2026-03-01',
      quantity: 20,
      icms: { cst: '10', base: 2000, rate: 12, value: 240 },
      icmsSt: { cst: '10', base: 2600, rate: 18, value: 228 },
    });
    // The latest: 10 units × 100.00 from SP's substitute; own ICMS 12 % = 120.00; vBCST 1,200.00 × 18 % = 216.00 − 120.00 = 96.00.
    const latest = await buyWithSt(t, p.hash, {
      entryDate: '2026-03-10',
      quantity: 10,
      icms: { cst: '10', base: 1000, rate: 12, value: 120 },
      icmsSt: { cst: '10', base: 1200, rate: 18, value: 96 },
    });

    const res = await preview(p.hash, 3);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const [line] = res.body.items;
    // Selling 3 of the 10: vBCSTRet 1,200 × 3/10 = 360.00; pST 18 (no FCP-ST); vICMSSubstituto 120 × 3/10 = 36.00; vICMSSTRet 96 × 3/10 = 28.80.
    expect([line.cfop, line.icms.cst, line.icms.base, line.icms.value]).to.deep.equal(['5405', '60', 0, 0]);
    expect(line.icms.retained).to.deep.include({
      base: 360,
      rate: 18,
      substituteValue: 36,
      value: 28.8,
      fcpBase: null,
      fcpRate: null,
      fcpValue: null,
      entryDocumentId: latest.id,
    });
    expect(line.rule.ratesSource).to.contain(`ICMS-ST retido: entrada ${latest.number}/1 de 2026-03-10`);
    // Retained ST is not charged again: vNF = 3 × 150.00; ICMSTot's vST stays 0.
    expect(res.body.totals).to.deep.include({ vST: 0, vFCPSTRet: 0, vNF: 450 });

    const proc = await issueSale(p.hash, 3);
    expect(RETAINED_TAGS.map((n) => tag(proc, n, 'ICMS60'))).to.deep.equal(['360.00', '18.0000', '36.00', '28.80', null, null, null]);
    expect([tag(proc, 'vFCPSTRet', 'ICMSTot'), tag(proc, 'vNF', 'ICMSTot')]).to.deep.equal(['0.00', '450.00']);
  });

  it('Simples (CSOSN 500): FCP-ST retained too, and the entry bought by the box (conversion factor 12) counted in units', async () => {
    const filialPath = `/api/settings/filial/${t.filialHashes[0]}`;
    const setFilial = async (body: Record<string, unknown>) => {
      const current = await api().get(filialPath).set(t.headers());
      const res = await api()
        .patch(filialPath)
        .set(t.headers())
        .send({ version: current.body.version, ...body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    const p = await stProduct(t, groupId);
    // 2 boxes of 12 = 24 units; own ICMS 240.00 (12 % of 2,000.00); vBCST 2,400.00: ICMS-ST 18 % = 432.00 − 240.00 = 192.00,
    // FCP-ST 2 % = 48.00; the line paid 240.00 of ST (value carries the FCP-ST, stated apart).
    await buyWithSt(t, p.hash, {
      entryDate: '2026-03-05',
      unit: 'CX',
      quantity: 2,
      unitPrice: 1000,
      conversionFactor: 12,
      icms: { cst: '10', base: 2000, rate: 12, value: 240 },
      icmsSt: { cst: '10', base: 2400, rate: 18, value: 240, fcpBase: 2400, fcpRate: 2, fcpValue: 48 },
    });
    await setFilial({ taxRegime: 'SIMPLES_NACIONAL', simplesExcessSublimit: false, simplesCreditRate: 1.25 });
    try {
      const res = await preview(p.hash, 6);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const [line] = res.body.items;
      // 6 of the 24 units: vBCSTRet 2,400 × 6/24 = 600.00; pST 18 + 2 = 20 (NT 2018.005: FCP-ST included);
      // vICMSSubstituto 240 × 6/24 = 60.00; vICMSSTRet 192 × 6/24 = 48.00; vBCFCPSTRet 600.00, pFCPSTRet 2, vFCPSTRet 48 × 6/24 = 12.00.
      expect(line.icms.csosn).to.equal('500');
      expect(line.icms.retained).to.deep.include({
        base: 600,
        rate: 20,
        substituteValue: 60,
        value: 48,
        fcpBase: 600,
        fcpRate: 2,
        fcpValue: 12,
      });
      expect(res.body.totals).to.deep.include({ vFCPSTRet: 12, vNF: 900 });

      const proc = await issueSale(p.hash, 6);
      expect(RETAINED_TAGS.map((n) => tag(proc, n, 'ICMSSN500'))).to.deep.equal([
        '600.00',
        '20.0000',
        '60.00',
        '48.00',
        '600.00',
        '2.0000',
        '12.00',
      ]);
      expect([tag(proc, 'vFCPSTRet', 'ICMSTot'), tag(proc, 'vNF', 'ICMSTot')]).to.deep.equal(['12.00', '900.00']);
    } finally {
      await setFilial({ taxRegime: 'LUCRO_REAL' });
    }
  });

  it('the entry imported from the supplier’s NF-e XML (ICMS10 with FCP-ST): the FCP-ST kept apart, then declared as retained', async () => {
    const p = await stProduct(t, groupId);
    // 10 × 100.00; own ICMS 12 % = 120.00; vBCST 1,000 × 1.40 = 1,400.00: 18 % = 252.00 − 120.00 = 132.00; FCP-ST 2 % = 28.00.
    const built = buildNfe({
      environment: '2',
      recipient: { cnpj: t.cnpj },
      items: [
        {
          code: 'CERV1',
          description: 'CERVEJA LATA',
          quantity: '10',
          unitPrice: '100.00',
          icms: { cst: '10', rate: '12', stMva: '40', stRate: '18', fcpStRate: '2' },
        },
      ],
    });
    const imported = await uploadConsulted(
      t,
      await api()
        .post(`${NFE}/importar-xml`)
        .set(t.headers())
        .send({ xml: built.xml, items: [{ lineNumber: 1, productId: p.hash, conversionFactor: 1 }] }),
    );
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const entryId = imported.body.entryDocument.id;
    const detail = await api().get(`/api/entry-document/detail/${entryId}`).set(t.headers());
    expect(detail.body.items[0].taxes.icmsSt).to.deep.equal({
      cst: '10',
      base: 1400,
      rate: 18,
      value: 160,
      fcpBase: 1400,
      fcpRate: 2,
      fcpValue: 28,
    });
    expect((await confirm(t, entryId)).status).to.equal(200);

    const res = await preview(p.hash, 4);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    // 4 of 10: vBCSTRet 560.00; pST 18 + 2 = 20; vICMSSubstituto 48.00; vICMSSTRet 132 × 0.4 = 52.80; FCP-ST 560.00, 2, 11.20.
    expect(res.body.items[0].icms.retained).to.deep.include({
      base: 560,
      rate: 20,
      substituteValue: 48,
      value: 52.8,
      fcpBase: 560,
      fcpRate: 2,
      fcpValue: 11.2,
      entryDocumentId: entryId,
    });
    const proc = await issueSale(p.hash, 4);
    expect(RETAINED_TAGS.map((n) => tag(proc, n, 'ICMS60'))).to.deep.equal([
      '560.00',
      '20.0000',
      '48.00',
      '52.80',
      '560.00',
      '2.0000',
      '11.20',
    ]);
    expect(tag(proc, 'vFCPSTRet', 'ICMSTot')).to.equal('11.20');
  });

  it('bought from a reseller with CST 60 (its NF-e declares the ST retained): those figures pass on to our resale', async () => {
    const p = await stProduct(t, groupId);
    // The reseller sold us 8 units declaring vBCSTRet 960.00, pST 20 (18 + FCP-ST 2), vICMSSubstituto 96.00,
    // vICMSSTRet 76.80 and the FCP-ST retained 960.00 × 2 % = 19.20 (what its own entry paid).
    const built = buildNfe({
      environment: '2',
      recipient: { cnpj: t.cnpj },
      items: [
        {
          code: 'CERV60',
          description: 'CERVEJA LATA',
          cfop: '5405',
          quantity: '8',
          unitPrice: '130.00',
          icms: {
            cst: '60',
            retained: {
              base: '960.00',
              rate: '20.0000',
              substitute: '96.00',
              value: '76.80',
              fcpBase: '960.00',
              fcpRate: '2.0000',
              fcpValue: '19.20',
            },
          },
        },
      ],
    });
    const imported = await uploadConsulted(
      t,
      await api()
        .post(`${NFE}/importar-xml`)
        .set(t.headers())
        .send({ xml: built.xml, items: [{ lineNumber: 1, productId: p.hash, conversionFactor: 1 }] }),
    );
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const entryId = imported.body.entryDocument.id;
    const detail = await api().get(`/api/entry-document/detail/${entryId}`).set(t.headers());
    expect(detail.body.items[0].taxes.icms.retained).to.deep.equal({
      base: 960,
      rate: 20,
      substituteValue: 96,
      value: 76.8,
      fcpBase: 960,
      fcpRate: 2,
      fcpValue: 19.2,
    });
    // Not a charge of this entry: no ICMS-ST in its total or cost.
    expect([detail.body.totals.icmsSt, detail.body.totals.total]).to.deep.equal([0, 1040]);
    expect((await confirm(t, entryId)).status).to.equal(200);

    // Selling 2 of the 8: vBCSTRet 240.00, pST 20 (18 + 2), vICMSSubstituto 24.00, vICMSSTRet 19.20, FCP-ST 240.00, 2, 4.80.
    const res = await preview(p.hash, 2);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.items[0].icms.retained).to.deep.include({
      base: 240,
      rate: 20,
      substituteValue: 24,
      value: 19.2,
      fcpBase: 240,
      fcpRate: 2,
      fcpValue: 4.8,
      entryDocumentId: entryId,
    });
    const proc = await issueSale(p.hash, 2);
    expect(RETAINED_TAGS.map((n) => tag(proc, n, 'ICMS60'))).to.deep.equal([
      '240.00',
      '20.0000',
      '24.00',
      '19.20',
      '240.00',
      '2.0000',
      '4.80',
    ]);
  });

  it('no confirmed entry with ST of the product at the filial → 422 naming items[0].retainedSt; another tenant’s entry is never used', async () => {
    const p = await stProduct(t, groupId);
    // The other tenant buys its own goods with ST, and its entry line is pointed at our product's id: still not ours.
    const theirs = await stProduct(other, null);
    const entry = await buyWithSt(other, theirs.hash, {
      entryDate: '2026-03-10',
      quantity: 10,
      icms: { cst: '10', base: 1000, rate: 12, value: 120 },
      icmsSt: { cst: '10', base: 1200, rate: 18, value: 96 },
    });
    await dataSource.query('UPDATE entry_document_item SET product_id = ? WHERE company_id = ? AND entry_document_id = ?', [
      p.id,
      other.companyId,
      decodeId('entry-document', entry.id),
    ]);
    // A draft (not confirmed) of ours does not count either.
    await createDraft(
      t,
      draftBody({
        items: [
          item({
            productId: p.hash,
            quantity: 10,
            unitPrice: 100,
            taxes: { icms: { cst: '10', base: 1000, rate: 12, value: 120 }, icmsSt: { cst: '10', base: 1200, rate: 18, value: 96 } },
          }),
        ],
      }),
    );

    const res = await preview(p.hash, 3);
    expectProblem(res, 422, 'FISCAL_DATA_INVALID');
    expect(res.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['items[0].retainedSt']);
    expect(res.body.errors[0].message).to.contain('CST 60').and.to.contain('no confirmed entry');

    const order = await createOrder(t, { customerId: t.customer.hash, items: [{ productId: p.hash, quantity: 3, unitPrice: 150 }] });
    const f = await fulfill(t, order.id, [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 3 }]);
    expect(f.status, JSON.stringify(f.body)).to.equal(201);
    const issued = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId: f.body.fulfillment.id });
    expectProblem(issued, 422, 'FISCAL_DATA_INVALID');
    expect(issued.body.errors.map((e: { path: string }) => e.path)).to.deep.equal(['items[0].retainedSt']);
  });
});

describe('Retained ST on resale at the counter: the NFC-e (model 65) carries ICMS60 with the entry’s figures', function () {
  this.timeout(90_000);

  it('a quick sale of goods bought with ST: vBCSTRet, pST, vICMSSubstituto, vICMSSTRet in ICMS60; PL_010 and the signature hold', async () => {
    const { t, save } = await counterTenant();
    await save();
    const group = await api().post('/api/fiscal/tax-groups').set(t.headers()).send({ code: 'BEBST8BC', name: 'Bebidas com ST retido' });
    expect(group.status, JSON.stringify(group.body)).to.equal(201);
    for (const contributor of [true, false]) {
      const rule = await api().post('/api/fiscal/operations').set(t.headers()).send({
        taxGroupId: group.body.id,
        operation: 'SALE',
        destination: 'INTERNAL',
        contributor,
        validFrom: '2020-01-01',
        cfop: '5405',
        icmsCst: '60',
        csosn: '500',
        stMode: 'ALREADY_TAXED',
      });
      expect(rule.status, JSON.stringify(rule.body)).to.equal(201);
    }
    const p = await makeProduct(t, { ncm: '22030000' } as never);
    const patched = await api()
      .patch(`/api/catalog/products/${p.hash}`)
      .set(t.headers())
      .send({ version: p.version, taxGroupId: group.body.id, cest: '0302100' });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    // 12 cans at 4.00 bought from the substitute: own ICMS 18 % = 8.64; vBCST 48 × 1.4 = 67.20 × 18 % = 12.10 − 8.64 = 3.46.
    const d = await createDraft(
      t,
      draftBody({
        items: [
          item({
            productId: p.hash,
            quantity: 12,
            unitPrice: 4,
            cfop: '5403',
            taxes: { icms: { cst: '10', base: 48, rate: 18, value: 8.64 }, icmsSt: { cst: '10', base: 67.2, rate: 18, value: 3.46 } },
          }),
        ],
      }),
    );
    expect((await confirm(t, d.id)).status).to.equal(200);

    const res = await api()
      .post('/api/sales-order')
      .set(t.headers())
      .send({
        flowMode: 'QUICK_SALE',
        items: [{ productId: p.hash, quantity: 5, unitPrice: '6.00' }],
        payments: [{ method: 'CASH', amount: '30.00' }],
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body.fiscalDocument).to.include({ model: 65, status: 'AUTHORIZED' });
    const xml = (await api().get(`/api/nfce/${res.body.fiscalDocument.id}/xml`).set(t.headers())).text;
    // 5 of 12: vBCSTRet 67.20 × 5/12 = 28.00; pST 18; vICMSSubstituto 8.64 × 5/12 = 3.60; vICMSSTRet 3.46 × 5/12 = 1.441… → 1.44.
    expect(RETAINED_TAGS.map((n) => tag(xml, n, 'ICMS60'))).to.deep.equal(['28.00', '18.0000', '3.60', '1.44', null, null, null]);
    if (canValidateXsd) expect(xsdErrors(xml), xml).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(xml)).to.equal(null);
  });
});
