import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { Payable } from '../../src/modules/payables/entities/payable.entity';
import { StockMovement } from '../../src/modules/stock/entities/stock-movement.entity';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { api } from '../support/api';
import { addStock, makeProduct, stockOf } from '../support/catalog';
import { setupFiscalData } from '../support/fiscal';
import { expectProblem } from '../support/problem';
import { createTestTenant } from '../support/tenant';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { invoiceTenant, InvoiceTenant } from '../invoices/support';
import { NFE } from '../nfe/nfe-support';

/*
 * Transfers between filiais (issue 34 item 1): filial A issues the transfer NF-e (CFOP from the tax
 * engine's TRANSFER rules, recipient filial B), the local authority authorizes it, A's stock leaves at
 * its average cost; B imports the nfeProc (class TRANSFER: own stock at the transfer value, no payable);
 * cancelling the NF-e brings A's units back. Both engines (DB_URL).
 */

describe('Transfers between filiais: POST /transfers, the NF-e, the round trip', function () {
  this.timeout(60_000);
  let t: InvoiceTenant;
  let bCnpj: string;
  before(async () => {
    t = await invoiceTenant();
    // Filial B in another state (interstate: 6152), with its fiscal data, a certificate and the simulator.
    await dataSource.manager.update(Filial, { id: t.filialIds[1], companyId: t.companyId }, { uf: 'RJ', stateRegistration: '12345674' });
    await setupFiscalData(t, { filiais: [1] });
    bCnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[1] })).cnpj;
    const a1 = t.sim.issueClientCertificate(bCnpj, 'MERCADO TESTE FILIAL RJ', 'senha-b');
    await saveCertificate(t.ctx, t.filialIds[1], { pfx: a1.pfx.toString('base64'), password: a1.password });
    await setFilialEndpoint(t.companyId, t.filialIds[1], {
      distUrl: t.endpoints.distUrl,
      eventUrl: t.endpoints.eventUrl,
      caPem: t.endpoints.caPem,
      label: 'local simulator',
    });
  });

  const key = () => `tr-${Math.random()}`;
  const transfer = (body: object, filialIndex = 0, tenant = t) =>
    api().post('/api/transfers').set(tenant.headers(filialIndex)).set('Idempotency-Key', key()).send(body);
  const rowCount = async () =>
    (await dataSource.query('SELECT COUNT(*) AS n FROM stock_transfer WHERE company_id = ?', [t.companyId]))[0].n as number | string;

  it("round trip: issued at A (6152, recipient B, XSD and xmlsec1), A's stock leaves at its average cost; B imports it: own stock at the transfer value, no payable", async () => {
    const p = t.products[0];
    const before = await stockOf(t, 0, p.id);
    const res = await transfer({
      toFilialId: t.filialHashes[1],
      items: [{ productId: p.hash, quantity: 4 }],
      notes: 'Reposicao da filial RJ',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(res.body).to.deep.include({ status: 'AUTHORIZED', fromFilialId: t.filialHashes[0], toFilialId: t.filialHashes[1], total: 12 });
    expect(res.body.items).to.deep.equal([{ lineNumber: 1, productId: p.hash, quantity: 4, unitCost: 3, total: 12 }]);
    const [invoice] = res.body.invoices;
    expect(invoice).to.include({ status: 'AUTHORIZED', live: true });

    expect(Number((await stockOf(t, 0, p.id)).quantity)).to.equal(Number(before.quantity) - 4);
    const out = await dataSource.manager.find(StockMovement, {
      where: { companyId: t.companyId, referenceType: 'stock-transfer', referenceId: decodeId('transfer', res.body.id) },
    });
    expect(out.map((m) => [m.direction, m.quantity.toString(), m.unitCost.toString(), m.filialId])).to.deep.equal([
      ['OUT', '-4', '3', t.filialIds[0]],
    ]);

    const xmlRes = await api()
      .get(`/api/invoices/${invoice.id}/xml`)
      .set(t.headers())
      .buffer(true)
      .parse((r, cb) => {
        let s = '';
        r.on('data', (c: Buffer) => (s += c.toString()));
        r.on('end', () => cb(null, s));
      });
    const xml = xmlRes.body as string;
    expect(xml)
      .to.contain('<CFOP>6152</CFOP>')
      .and.contain(`<dest><CNPJ>${bCnpj}</CNPJ>`)
      .and.contain('<tpNF>1</tpNF>')
      .and.contain('<finNFe>1</finNFe>')
      .and.contain('<idDest>2</idDest>');
    if (canValidateXsd) expect(xsdErrors(xml)).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(xml)).to.equal(null);

    // Filial B books the entry by importing that nfeProc, after the authority confirms its key.
    const imported = await api()
      .post(`${NFE}/importar-xml`)
      .set(t.headers(1))
      .send({ xml, items: [{ lineNumber: 1, productId: p.hash }] });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    expect(imported.body.inbound.signer.verdict).to.equal('TRUSTED');
    const consulted = await api()
      .post(`${NFE}/consultar-protocolo`)
      .set(t.headers(1))
      .set('Idempotency-Key', key())
      .send({ accessKey: invoice.accessKey });
    expect(consulted.body.outcome, JSON.stringify(consulted.body)).to.equal('CONFIRMED');
    const id = imported.body.entryDocument.id;
    const pre = await api().get(`/api/entry-document/confirm-preview/${id}`).set(t.headers(1));
    expect(pre.body.lines.map((l: { operationClass: string; entryCfop: string }) => [l.entryCfop, l.operationClass])).to.deep.equal([
      ['2152', 'TRANSFER'],
    ]);
    expect(pre.body.payables).to.deep.equal([]);
    const confirmed = await api().post(`/api/entry-document/confirm/${id}`).set(t.headers(1));
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    const atB = await stockOf(t, 1, p.id);
    expect([Number(atB.quantity), Number(atB.averageCost)]).to.deep.equal([4, 3]);
    expect(await dataSource.manager.countBy(Payable, { companyId: t.companyId, entryDocumentId: decodeId('entry-document', id) })).to.equal(
      0,
    );
  });

  it('cancelling the NF-e brings the units back to A at the cost they left at', async () => {
    const p = t.products[1];
    const before = await stockOf(t, 0, p.id);
    const res = await transfer({ toFilialId: t.filialHashes[1], items: [{ productId: p.hash, quantity: 10 }] });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    expect(Number((await stockOf(t, 0, p.id)).quantity)).to.equal(Number(before.quantity) - 10);
    const cancel = await api()
      .post(`/api/invoices/${res.body.invoices[0].id}/cancel`)
      .set(t.headers())
      .set('Idempotency-Key', key())
      .send({ justification: 'Transferencia registrada em duplicidade' });
    expect(cancel.status, JSON.stringify(cancel.body)).to.equal(200);
    const detail = await api().get(`/api/transfers/detail/${res.body.id}`).set(t.headers());
    expect(detail.body.status).to.equal('CANCELLED');
    expect(detail.body.invoices[0].status).to.equal('CANCELLED');
    const after = await stockOf(t, 0, p.id);
    expect([Number(after.quantity), Number(after.averageCost)]).to.deep.equal([Number(before.quantity), Number(before.averageCost)]);
  });

  it('two transfers racing for the last units: one is issued, the other → 422 INSUFFICIENT_STOCK; the stock never goes below zero', async () => {
    const p = await makeProduct(t, { ncm: '22030000' } as never);
    await setupFiscalData(t, { filiais: [0], products: [p.id] });
    await addStock(t, 0, p.id, 5, '2.5');
    const [a, b] = await Promise.all([
      transfer({ toFilialId: t.filialHashes[1], items: [{ productId: p.hash, quantity: 4 }] }),
      transfer({ toFilialId: t.filialHashes[1], items: [{ productId: p.hash, quantity: 4 }] }),
    ]);
    expect([a.status, b.status].sort()).to.deep.equal([201, 422]);
    expectProblem(
      [a, b].find((r) => r.status === 422)!,
      422,
      'INSUFFICIENT_STOCK',
    );
    expect(Number((await stockOf(t, 0, p.id)).quantity)).to.equal(1);
  });

  it("bad input → 400, the same filial → 422, another tenant's filial, product or transfer → 404; nothing written", async () => {
    const rows = await rowCount();
    const p = t.products[0];
    expectProblem(await transfer({ toFilialId: t.filialHashes[1], items: [] }), 400, 'VALIDATION_ERROR');
    expectProblem(await transfer({ toFilialId: t.filialHashes[1], items: [{ productId: p.hash, quantity: -1 }] }), 400, 'VALIDATION_ERROR');
    expectProblem(
      await transfer({
        toFilialId: t.filialHashes[1],
        items: [
          { productId: p.hash, quantity: 1 },
          { productId: p.hash, quantity: 2 },
        ],
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectProblem(
      await transfer({ toFilialId: t.filialHashes[0], items: [{ productId: p.hash, quantity: 1 }] }),
      422,
      'TRANSFER_SAME_FILIAL',
    );
    const other = await createTestTenant();
    const theirs = await makeProduct(other);
    expectProblem(
      await transfer({ toFilialId: other.filialHashes[1], items: [{ productId: p.hash, quantity: 1 }] }),
      404,
      'FILIAL_NOT_FOUND',
    );
    expectProblem(
      await transfer({ toFilialId: t.filialHashes[1], items: [{ productId: theirs.hash, quantity: 1 }] }),
      404,
      'PRODUCT_NOT_FOUND',
    );
    expectProblem(
      await transfer({ toFilialId: t.filialHashes[1], items: [{ productId: p.hash, quantity: 1_000_000 }] }),
      422,
      'INSUFFICIENT_STOCK',
    );
    expect(await rowCount()).to.equal(rows);
    const mine = await dataSource.query('SELECT id FROM stock_transfer WHERE company_id = ? ORDER BY id LIMIT 1', [t.companyId]);
    const { encodeId } = await import('../../src/core/hashids');
    expectProblem(
      await api()
        .get(`/api/transfers/detail/${encodeId('transfer', Number(mine[0].id))}`)
        .set(other.headers()),
      404,
      'TRANSFER_NOT_FOUND',
    );
  });
});
