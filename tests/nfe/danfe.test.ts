import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dataSource } from '../../src/core/db/data-source';
import { paginateRows } from '../../src/modules/danfe/danfe-layout';
import { NfeInbound } from '../../src/modules/inbound-nfe/entities/nfe-inbound.entity';
import { api } from '../support/api';
import { manyItems } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { createTestTenant } from '../support/tenant';
import { NFE, NfeTenant, nfeTenant } from './nfe-support';

const has = (tool: string) => spawnSync(tool, ['-v'], { stdio: 'ignore' }).status === 0;
const pdfBody = (res: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe('DANFE (PDF) of a stored NF-e', function () {
  this.timeout(120_000);
  let t: NfeTenant;
  let id: string;
  let key: string;
  let pdf: Buffer;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'danfe-'));

  before(async () => {
    t = await nfeTenant();
    const long = 'PRODUTO COM DESCRICAO LONGA QUE OCUPA VARIAS LINHAS NA COLUNA DE DESCRICAO DO DANFE PARA TESTAR A QUEBRA DE PAGINA ITEM';
    const items = manyItems(990).map((it, i) => (i % 7 === 0 ? { ...it, description: `${long} ${i + 1}` } : it));
    const nfe = await t.nfe({
      items,
      installments: [{ dueDate: '2025-04-10' }, { dueDate: '2025-05-10' }, { dueDate: '2025-06-10' }],
      additionalInfo: 'PEDIDO 4512 - ENTREGA NA DOCA 3',
    });
    key = nfe.accessKey;
    const staged = await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: nfe.xml });
    expect(staged.status, JSON.stringify(staged.body)).to.equal(201);
    id = staged.body.inbound.id;
    const res = await api().get(`${NFE}/inbound/danfe/${id}/${t.filialHashes[0]}`).set(t.headers()).buffer(true).parse(pdfBody);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/pdf');
    expect(res.headers['content-disposition']).to.equal(`inline; filename="${key}-danfe.pdf"`);
    pdf = res.body;
    fs.writeFileSync(path.join(dir, 'danfe.pdf'), pdf);
  });

  it('is a PDF of several pages', () => {
    expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
    expect(pdf.length).to.be.greaterThan(20_000);
  });

  it('shows each of the 990 item codes exactly once, and every block (pdftotext)', function () {
    if (!has('pdftotext')) return this.skip();
    const out = spawnSync('pdftotext', ['-enc', 'UTF-8', path.join(dir, 'danfe.pdf'), '-'], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(out.status).to.equal(0);
    const text = out.stdout;
    const counts = new Map<string, number>();
    for (const m of text.matchAll(/SKU\d{5}/g)) counts.set(m[0], (counts.get(m[0]) ?? 0) + 1);
    const expected = Array.from({ length: 990 }, (_v, i) => `SKU${String(i + 1).padStart(5, '0')}`);
    expect([...counts.keys()].sort()).to.deep.equal(expected);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).to.deep.equal([]);
    const pages = (text.match(/\f/g) ?? []).length;
    expect(pages).to.be.greaterThan(10);
    expect(text).to.include(`FOLHA 1/${pages}`);
    expect(text).to.include(`FOLHA ${pages}/${pages}`);
    for (const block of [
      'DANFE',
      'CHAVE DE ACESSO',
      'PROTOCOLO DE AUTORIZAÇÃO DE USO',
      'DESTINATÁRIO / REMETENTE',
      'FATURA / DUPLICATAS',
      'CÁLCULO DO IMPOSTO',
      'TRANSPORTADOR / VOLUMES TRANSPORTADOS',
      'DADOS DOS PRODUTOS / SERVIÇOS',
      'DADOS ADICIONAIS',
      'PEDIDO 4512 - ENTREGA NA DOCA 3',
      'FORNECEDOR TESTE LTDA',
    ]) {
      expect(text, block).to.include(block);
    }
    expect(text.replace(/\s+/g, '')).to.include(key);
  });

  it('page 1 renders as an image (pdftoppm)', function () {
    if (!has('pdftoppm')) return this.skip();
    const out = spawnSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', path.join(dir, 'danfe.pdf'), path.join(dir, 'page')]);
    expect(out.status).to.equal(0);
    const png = fs.readdirSync(dir).find((f) => f.startsWith('page') && f.endsWith('.png'))!;
    expect(fs.readFileSync(path.join(dir, png)).subarray(1, 4).toString()).to.equal('PNG');
  });

  it('a cancelled NF-e is stamped as such', async function () {
    if (!has('pdftotext')) return this.skip();
    const nfe = await t.nfe({ items: manyItems(3) });
    const staged = await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: nfe.xml });
    await dataSource.manager.update(NfeInbound, { accessKey: nfe.accessKey, companyId: t.companyId }, { authorityStatus: 'CANCELLED' });
    const res = await api()
      .get(`${NFE}/inbound/danfe/${staged.body.inbound.id}/${t.filialHashes[0]}`)
      .set(t.headers())
      .buffer(true)
      .parse(pdfBody);
    const file = path.join(dir, 'cancelled.pdf');
    fs.writeFileSync(file, res.body);
    const text = spawnSync('pdftotext', ['-raw', file, '-'], { encoding: 'utf8' }).stdout;
    expect(text).to.include('NF-e CANCELADA');
    expect(text).to.include('FOLHA 1/1');
  });

  it('a record known only by its summary → 422; another company → 404; a filial not granted → 403', async () => {
    const nfe = await t.nfe({ items: manyItems(1) });
    const staged = await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: nfe.xml });
    await dataSource.manager.update(NfeInbound, { accessKey: nfe.accessKey, companyId: t.companyId }, { hasXml: false, kind: 'SUMMARY' });
    expectProblem(
      await api().get(`${NFE}/inbound/danfe/${staged.body.inbound.id}/${t.filialHashes[0]}`).set(t.headers()),
      422,
      'NFE_XML_NOT_AVAILABLE',
    );
    const other = await createTestTenant();
    expectProblem(await api().get(`${NFE}/inbound/danfe/${id}/${other.filialHashes[0]}`).set(other.headers()), 404);
    expectProblem(await api().get(`${NFE}/inbound/danfe/${id}/${t.filialHashes[1]}`).set(t.headers()), 404);
    expectProblem(
      await api()
        .get(`${NFE}/inbound/danfe/${id}/${t.filialHashes[0]}`)
        .set(t.headersWith({ filiais: [t.filialHashes[1]] })),
      403,
    );
  });

  it('pagination puts every row on exactly one page, in order, within each page', () => {
    for (let run = 0; run < 200; run++) {
      const rows = Array.from({ length: Math.floor(Math.random() * 300) }, (_v, index) => ({
        index,
        height: 6 + Math.random() * (run % 10 === 0 ? 400 : 30),
      }));
      const first = 100 + Math.random() * 300;
      const next = 400 + Math.random() * 300;
      const pages = paginateRows(rows, first, next);
      expect(pages.flat().map((r) => r.index)).to.deep.equal(rows.map((r) => r.index));
      pages.forEach((page, p) => {
        const used = page.reduce((n, r) => n + r.height, 0);
        if (page.length > 1) expect(used).to.be.at.most(p === 0 ? first : next);
      });
    }
  });
});
