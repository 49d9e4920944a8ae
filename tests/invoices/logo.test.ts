import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { CompanyLogo } from '../../src/modules/outbound-nfe/entities/company-logo.entity';
import { api } from '../support/api';
import { pdfImages as images, png } from '../support/images';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { fulfilledOrder, invoiceTenant, InvoiceTenant } from './support';

/* Issue 44: a company uploads its logo once; its DANFE prints it in the issuer's box. */

const pdfOf = async (t: InvoiceTenant, id: string) => {
  const res = await api()
    .get(`/api/invoices/${id}/danfe`)
    .set(t.headers())
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  expect(res.status).to.equal(200);
  return res.body as Buffer;
};

describe("The company's logo on its DANFE", function () {
  this.timeout(60_000);
  let t: InvoiceTenant;
  let other: TestTenant;
  let invoiceId: string;
  const put = (body: unknown, headers = t.headers()) =>
    api()
      .put('/api/invoices/logo')
      .set(headers)
      .send(body as object);

  before(async () => {
    t = await invoiceTenant();
    other = await createTestTenant();
    const { fulfillmentId } = await fulfilledOrder(t);
    const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    invoiceId = res.body.id;
  });

  it('without a logo the DANFE has no image but its barcode; with one, the logo is drawn; it can be read back and removed', async () => {
    const before = images(await pdfOf(t, invoiceId));
    expectProblem(await api().get('/api/invoices/logo').set(t.headers()), 404, 'LOGO_NOT_FOUND');
    const logo = png(120, 60);
    const res = await put({ contentType: 'image/png', image: logo.toString('base64') });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ contentType: 'image/png', bytes: logo.length });
    expect(images(await pdfOf(t, invoiceId))).to.equal(before + 1);
    const back = await api()
      .get('/api/invoices/logo')
      .set(t.headers())
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(back.status).to.equal(200);
    expect(Buffer.compare(back.body as Buffer, logo)).to.equal(0);
    // Another company has none, and does not see this one.
    expectProblem(await api().get('/api/invoices/logo').set(other.headers()), 404, 'LOGO_NOT_FOUND');
    // A second upload replaces it (one row per company).
    expect((await put({ contentType: 'image/png', image: png(40, 40).toString('base64') })).status).to.equal(200);
    expect(await dataSource.manager.countBy(CompanyLogo, { companyId: t.companyId })).to.equal(1);
    expect((await api().delete('/api/invoices/logo').set(t.headers())).status).to.equal(204);
    expect(images(await pdfOf(t, invoiceId))).to.equal(before);
    expectProblem(await api().delete('/api/invoices/logo').set(t.headers()), 404, 'LOGO_NOT_FOUND');
  });

  it('refuses what is not the declared image, too large, or sent without every filial; nothing is stored', async () => {
    expectProblem(await put({ contentType: 'image/jpeg', image: png(10, 10).toString('base64') }), 422, 'LOGO_INVALID');
    expectProblem(
      await put({ contentType: 'image/png', image: Buffer.from('not an image at all, just text').toString('base64') }),
      422,
      'LOGO_INVALID',
    );
    expectProblem(await put({ contentType: 'image/png', image: png(3000, 1).toString('base64') }), 422, 'LOGO_INVALID');
    expectProblem(await put({ contentType: 'image/png', image: Buffer.alloc(210 * 1024, 1).toString('base64') }), 422, 'LOGO_TOO_LARGE');
    expectProblem(await put({ contentType: 'image/gif', image: 'R0lGODlh' }), 400, 'VALIDATION_ERROR');
    expectProblem(
      await put({ contentType: 'image/png', image: png(10, 10).toString('base64') }, t.headersWith({ filiais: [t.filialHashes[0]] })),
      403,
      'ALL_FILIAIS_REQUIRED',
    );
    expect(await dataSource.manager.countBy(CompanyLogo, { companyId: t.companyId })).to.equal(0);
  });
});
