import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { api } from '../support/api';
import { addStock, makeCustomer, makePaymentMethod, makeSeller } from '../support/catalog';
import type { TestTenant } from '../support/tenant';
import { invoiceTenant, InvoiceTenant } from '../invoices/support';

/*
 * The NFC-e tests' world: an emission tenant (tests/invoices/support.ts) whose two filiais sell at the
 * counter (walk-in customer, seller, cash and Pix), the filial 0's NFC-e settings saved through the
 * route, and the PDF's QR code read back with pdftoppm + zbarimg (skipped where they are absent).
 */

export const QR_URL = 'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode';
export const CONSULT_URL = 'https://www.homologacao.nfce.fazenda.sp.gov.br/consulta';

export const notesOf = (t: TestTenant) =>
  dataSource.manager.find(NfceDocument, { where: { companyId: t.companyId }, order: { number: 'ASC' } });

/** A body of PUT /nfce/configuration: QR v3, auto issue, 3 s, over what `over` changes. */
export const nfceSettings = (over: Record<string, unknown> = {}) => ({
  series: 1,
  qrVersion: 3,
  qrCodeUrl: QR_URL,
  consultUrl: CONSULT_URL,
  autoIssue: true,
  syncTimeoutMs: 3000,
  ...over,
});

export interface Counter {
  t: InvoiceTenant;
  /** Saves filial 0's NFC-e settings (defaults: QR v3, auto issue, 3 s) over what `over` changes. */
  save(over?: Record<string, unknown>): Promise<any>;
  /** One quick sale of two products (40.90, paid 50.00 in cash) on filial `i`. */
  sell(over?: Record<string, unknown>, i?: number): ReturnType<ReturnType<typeof api>['post']>;
}

export async function counterTenant(): Promise<Counter> {
  const t = await invoiceTenant();
  const walkIn = await makeCustomer(t, { name: 'Consumidor Final' });
  const seller = await makeSeller(t, { name: 'Caixa 1' });
  await makePaymentMethod(t, 'CASH', 'CASH');
  await makePaymentMethod(t, 'PIX', 'PIX');
  for (const p of t.products) await addStock(t, 1, p.id, 100, '3');
  for (const i of [0, 1]) {
    const res = await api()
      .put(`/api/quick-sale/configuration/${t.filialHashes[i]}`)
      .set(t.headers(i))
      .send({
        enabled: true,
        defaultCustomerId: walkIn.hash,
        defaultSellerId: seller.hash,
        paymentMethods: ['CASH', 'PIX'],
        defaultPaymentMethod: 'CASH',
      });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
  let version = 0;
  return {
    t,
    async save(over = {}) {
      const res = await api()
        .put(`/api/nfce/configuration/${t.filialHashes[0]}`)
        .set(t.headers())
        .send({ ...nfceSettings(over), ...(version ? { version } : {}) });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      version = res.body.version;
      return res.body;
    },
    sell: (over = {}, i = 0) =>
      api()
        .post('/api/sales-order')
        .set(t.headers(i))
        .send({
          flowMode: 'QUICK_SALE',
          items: [
            { productId: t.products[0].hash, quantity: 2, unitPrice: '10.50' },
            { productId: t.products[1].hash, quantity: 1, unitPrice: '19.90' },
          ],
          payments: [{ method: 'CASH', amount: '50.00' }],
          ...over,
        }),
  };
}

const has = (tool: string) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).error === undefined;
/** pdftoppm (poppler-utils) and zbarimg (zbar-tools) are there to read a PDF's QR code back. */
export const canDecodeQr = has('pdftoppm') && has('zbarimg');

/** The DANFE NFC-e PDF of a note, rasterized (300 dpi, grey) and its QR code decoded: the text it carries. */
export async function decodedQr(t: TestTenant, nfceId: string): Promise<string> {
  const res = await api()
    .get(`/api/nfce/${nfceId}/danfe`)
    .set(t.headers())
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => cb(null, Buffer.concat(chunks)));
    });
  expect(res.status).to.equal(200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nfce-qr-'));
  try {
    fs.writeFileSync(path.join(dir, 'danfe.pdf'), res.body as Buffer);
    execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', '-singlefile', path.join(dir, 'danfe.pdf'), path.join(dir, 'page')]);
    // --raw: the text alone; -q: no summary; one symbol expected on the receipt.
    const out = execFileSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', path.join(dir, 'page.png')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const symbols = out.split('\n').filter(Boolean);
    expect(symbols, 'QR codes on the DANFE').to.have.length(1);
    return symbols[0];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
