import { expect } from 'chai';
import { api } from '../support/api';
import { pdfImages, png } from '../support/images';
import { createTestTenant, TestTenant } from '../support/tenant';
import { Counter, counterTenant } from './support';

/* Issue 44: the company's logo (PUT /invoices/logo, the NF-e DANFE's) also heads its 80 mm NFC-e DANFE. */

const binary = (r: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  r.on('data', (c: Buffer) => chunks.push(c));
  r.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe("NFC-e DANFE: the company's logo", function () {
  this.timeout(120_000);
  let counter: Counter;
  let other: TestTenant;
  let nfceId: string;
  const t = () => counter.t;
  const pdf = async (headers = t().headers()) => {
    const res = await api().get(`/api/nfce/${nfceId}/danfe`).set(headers).buffer(true).parse(binary);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/pdf/);
    return res.body as Buffer;
  };

  before(async () => {
    counter = await counterTenant();
    other = await createTestTenant();
    await counter.save();
    const sale = await counter.sell();
    expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
    nfceId = sale.body.fiscalDocument.id;
  });

  it('without a logo only the QR code is an image; with one the logo is drawn (its own size); removed, the QR code alone again', async () => {
    const without = await pdf();
    const qrOnly = pdfImages(without);
    expect(qrOnly).to.be.greaterThan(0);
    expect(without.toString('latin1')).to.not.match(/\/Width 64\s*\/Height 32|\/Height 32\s*\/Width 64/);
    const logo = png(64, 32);
    const res = await api()
      .put('/api/invoices/logo')
      .set(t().headers())
      .send({ contentType: 'image/png', image: logo.toString('base64') });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const withLogo = await pdf();
    expect(pdfImages(withLogo)).to.equal(qrOnly + 1);
    const text = withLogo.toString('latin1');
    expect(text)
      .to.match(/\/Width 64/)
      .and.match(/\/Height 32/);
    // Another company's DANFE does not carry it (and cannot read this note: 404).
    expect((await api().get(`/api/nfce/${nfceId}/danfe`).set(other.headers())).status).to.equal(404);
    await api().delete('/api/invoices/logo').set(t().headers()).expect(204);
    expect(pdfImages(await pdf())).to.equal(qrOnly);
  });
});
