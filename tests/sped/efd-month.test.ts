import { expect } from 'chai';
import zlib from 'node:zlib';
import { businessToday, fiscalDateTime } from '../../src/core/business-date';
import { AuditLog } from '../../src/core/audit/audit-log.entity';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { Dec } from '../../src/core/decimal';
import { OutboundNfe } from '../../src/modules/outbound-nfe/entities/outbound-nfe.entity';
import { NfceDocument } from '../../src/modules/nfce/entities/nfce-document.entity';
import { SpedFile } from '../../src/modules/sped/entities/sped-file.entity';
import { LAYOUT } from '../../src/modules/sped/layout';
import { runSpedQueue } from '../../src/modules/sped';
import { api } from '../support/api';
import { buildCte } from '../support/cte-builder';
import { setupFiscalData } from '../support/fiscal';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { confirm, createDraft, draftBody, item } from '../entry-document/support';
import { fulfilledOrder } from '../invoices/support';
import { Counter, counterTenant } from '../nfce/support';

/*
 * Issue 47, the month's books and its EFD ICMS/IPI, on both engines: a month with an entry document,
 * NF-e sales (one cancelled), a voided number, NFC-e sales, a CT-e, a transfer and a stock count.
 * The Livros' totals equal the documents to the cent; the EFD has every register's field count and
 * format, 9900 counts right, ISO-8859-1 bytes and CRLF, C190/E110/E116 add up, COD_SIT 02/05, the
 * references exist, and every C190 traces back to its document lines.
 */

const binary = (r: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  r.on('data', (c: Buffer) => chunks.push(c));
  r.on('end', () => cb(null, Buffer.concat(chunks)));
};
const tag = (xml: string, name: string) => new Dec(new RegExp(`<ICMSTot>[\\s\\S]*?<${name}>([^<]*)</${name}>`).exec(xml)?.[1] ?? '0');
const num = (s: string) => new Dec(s.replace(',', '.') || '0');
const ACCOUNTANT = {
  name: 'Carla Menezes',
  cpf: '52998224725',
  crc: '1SP123456O5',
  postalCode: '01304001',
  street: 'Rua Augusta',
  number: '100',
  district: 'Consolacao',
  municipalityCode: '3550308',
  email: 'carla@contab.com.br',
};

describe('Fiscal books and the EFD ICMS/IPI of a month', function () {
  this.timeout(180_000);
  let c: Counter;
  let t: Counter['t'];
  let other: TestTenant;
  const period = businessToday().slice(0, 7);
  let countId: string;
  let cancelledKey: string;
  let voidedNumber: number;
  let fileId: string;
  let text: string;

  /** The job once written: the request started it; the queue run covers a missed start. */
  const settled = async (id: string) => {
    await runSpedQueue();
    let status: any;
    for (let i = 0; i < 100; i++) {
      status = (await api().get(`/api/sped/efd-icms-ipi/${id}`).set(t.headers())).body;
      if (status.status !== 'QUEUED' && status.status !== 'RUNNING') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    return status;
  };

  before(async () => {
    c = await counterTenant();
    t = c.t;
    other = await createTestTenant();
    await setupFiscalData(t, { filiais: [1] });
    await c.save();
    // Entry: 10 units at 3.00 with 18 % ICMS credit.
    const draft = await createDraft(
      t,
      draftBody({
        issueDate: businessToday(),
        entryDate: businessToday(),
        supplier: { document: randomCnpj(), name: 'Distribuidora Paulista Ltda', uf: 'SP', stateRegistration: '110042490114' },
        items: [
          item({
            productId: t.products[0].hash,
            quantity: 10,
            unitPrice: 3,
            cfop: '5102',
            entryCfop: '1102',
            taxes: { icms: { cst: '00', base: 30, rate: 18, value: 5.4 } },
          }),
        ],
      }),
    );
    const confirmed = await confirm(t, draft.id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).to.equal(200);
    // Two NF-e sales, the second cancelled.
    for (const cancel of [false, true]) {
      const { fulfillmentId, order } = await fulfilledOrder(t);
      const res = await api().post('/api/invoices/issue').set(t.headers()).send({ fulfillmentId });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.status).to.equal('AUTHORIZED');
      if (cancel) {
        const cancelled = await api()
          .post(`/api/invoices/${res.body.id}/cancel`)
          .set(t.headers())
          .send({ justification: 'Pedido faturado em duplicidade' });
        expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
        cancelledKey = res.body.accessKey;
      } else {
        // A customer returns 1 unit of the first sale: our NF-e de devolução (entry, 1202).
        const ret = await api()
          .post(`/api/returns/${t.filialHashes[0]}`)
          .set(t.headers())
          .send({
            customerId: t.customer.hash,
            reason: 'Produto com defeito',
            refundMethod: 'CASH',
            items: [{ salesOrderItemId: order.items[0].salesOrderItemId, quantity: 1, restock: true }],
          });
        expect(ret.status, JSON.stringify(ret.body)).to.equal(201);
        expect(ret.body.documents[0].status).to.equal('AUTHORIZED');
      }
    }
    // A number of the série voided.
    const series = (await api().get(`/api/invoices/series/${t.filialHashes[0]}`).set(t.headers())).body.data.find(
      (s: any) => s.model === 55,
    );
    voidedNumber = series.nextNumber;
    const voided = await api().post('/api/invoices/void-numbers').set(t.headers()).send({
      filialId: t.filialHashes[0],
      series: series.series,
      first: voidedNumber,
      last: voidedNumber,
      justification: 'Numero pulado pelo sistema emissor',
    });
    expect(voided.status, JSON.stringify(voided.body)).to.equal(201);
    // Two NFC-e at the counter.
    for (let i = 0; i < 2; i++) {
      const sale = await c.sell();
      expect(sale.status, JSON.stringify(sale.body)).to.equal(201);
    }
    // One more offline (tpEmis 9): the authority is down; it is a document of the month, not authorized yet.
    t.sim.issuer.downFor(600_000);
    const offline = await c.sell();
    t.sim.issuer.downFor(0);
    expect(offline.body.fiscalDocument, JSON.stringify(offline.body)).to.include({ status: 'CONTINGENCY' });
    // A transfer to filial 2 (5152).
    const tr = await api()
      .post('/api/transfers')
      .set(t.headers())
      .set('Idempotency-Key', `efd-${Math.random()}`)
      .send({ toFilialId: t.filialHashes[1], items: [{ productId: t.products[0].hash, quantity: 2 }] });
    expect(tr.status, JSON.stringify(tr.body)).to.equal(201);
    // A CT-e taken (freight of the entry), 12 % ICMS.
    const cte = buildCte({
      recipient: { cnpj: t.cnpj },
      total: '150.00',
      icms: { cst: '00', rate: '12' },
      nfeKeys: [],
      issuedAt: fiscalDateTime(),
      environment: '2',
    });
    const staged = await api().post('/api/entry-document/cte/stage-xml').set(t.headers()).send({ xml: cte.xml });
    expect(staged.status, JSON.stringify(staged.body)).to.equal(201);
    // A stock count of product 1, closed.
    const sheet = await api()
      .post('/api/inventory/counts')
      .set(t.headers())
      .send({ productIds: [t.products[1].hash], motive: '01' });
    expect(sheet.status, JSON.stringify(sheet.body)).to.equal(201);
    countId = sheet.body.id;
    const stock = (await api().get(`/api/inventory/counts/${countId}`).set(t.headers())).body;
    void stock;
    await api()
      .put(`/api/inventory/counts/${countId}/lines`)
      .set(t.headers())
      .send({ lines: [{ productId: t.products[1].hash, countedQuantity: 9990 }] });
    const closed = await api().post(`/api/inventory/counts/${countId}/close`).set(t.headers()).send({});
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
  });

  it('GET /fiscal-books/:filialId/:period/summary: exits and entries by CFOP/CST/rate, totals equal the documents to the cent; CSV; bad input and other tenants', async () => {
    const res = await api().get(`/api/fiscal-books/${t.filialHashes[0]}/${period}/summary`).set(t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const invoices = await dataSource.manager.find(OutboundNfe, {
      where: { companyId: t.companyId, filialId: t.filialIds[0], status: 'AUTHORIZED' },
    });
    const notes = await dataSource.manager.find(NfceDocument, { where: { companyId: t.companyId, filialId: t.filialIds[0] } });
    const xmls = [
      ...invoices.map((i) => zlib.gunzipSync(i.procXmlGz ?? i.signedXmlGz).toString('utf8')),
      ...notes.map((n) => zlib.gunzipSync(n.procXmlGz ?? n.signedXmlGz).toString('utf8')),
    ];
    const exits = xmls.filter((x) => /<tpNF>1<\/tpNF>/.test(x));
    const sumTag = (name: string) => exits.reduce((a, x) => a.plus(tag(x, name)), new Dec(0));
    expect(res.body.totals.exits.icms).to.equal(sumTag('vICMS').toNumber());
    expect(res.body.totals.exits.icmsBase).to.equal(sumTag('vBC').toNumber());
    expect(res.body.totals.exits.operationValue).to.equal(sumTag('vNF').toNumber());
    expect(res.body.totals.exits.pis).to.equal(sumTag('vPIS').toNumber());
    expect(res.body.totals.exits.cofins).to.equal(sumTag('vCOFINS').toNumber());
    // The cancelled NF-e is not in the books: 2 NF-e (sale, transfer) + 2 NFC-e.
    expect(res.body.exits.reduce((a: number, r: any) => a + r.documents, 0)).to.be.at.least(4);
    expect(res.body.exits.map((r: any) => r.cfop)).to.include.members(['5102', '5152']);
    // Entries: the document (1102, 18 %, 5.40 credit) and the CT-e (1353, 12 % of 150.00).
    const e1102 = res.body.entries.find((r: any) => r.cfop === '1102');
    expect(e1102).to.include({ cst: '000', rate: 18, icmsBase: 30, icms: 5.4, operationValue: 30, documents: 1 });
    expect(res.body.entries.find((r: any) => r.cfop === '1353')).to.include({ rate: 12, icmsBase: 150, icms: 18, operationValue: 150 });
    // The devolução we issued (tpNF 0, 1202): its ICMS is a credit of the month.
    const returned = invoices.filter((i) => i.source === 'CUSTOMER_RETURN').map((i) => zlib.gunzipSync(i.procXmlGz!).toString('utf8'));
    expect(returned).to.have.length(1);
    expect(res.body.entries.find((r: any) => r.cfop === '1202')).to.include({ documents: 1, icms: tag(returned[0], 'vICMS').toNumber() });
    expect(res.body.totals.entries.icms).to.equal(new Dec(23.4).plus(tag(returned[0], 'vICMS')).toNumber());
    const exitXmls = xmls.filter((x) => !returned.includes(x));
    expect(res.body.totals.exits.icms).to.equal(exitXmls.reduce((a, x) => a.plus(tag(x, 'vICMS')), new Dec(0)).toNumber());

    const csv = await api().get(`/api/fiscal-books/${t.filialHashes[0]}/${period}/summary?format=csv`).set(t.headers());
    expect(csv.status).to.equal(200);
    expect(csv.headers['content-type']).to.match(/^text\/csv/);
    const rows = csv.text.split('\r\n').filter(Boolean);
    expect(rows[0]).to.equal('direction,cfop,cst,rate,documents,operationValue,icmsBase,icms,stBase,st,ipi,difal,fcp,pis,cofins');
    expect(rows.length).to.equal(1 + res.body.entries.length + res.body.exits.length);
    expect(rows.length).to.be.greaterThan(3);
    expect(rows, rows.join('\n')).to.include(`ENTRADA,1102,000,18.00,1,30.00,30.00,5.40,0.00,0.00,0.00,0.00,0.00,0.41,1.87`);

    expectProblem(await api().get(`/api/fiscal-books/${t.filialHashes[0]}/2026-13/summary`).set(t.headers()), 400, 'VALIDATION_ERROR');
    expectProblem(
      await api().get(`/api/fiscal-books/${t.filialHashes[0]}/${period}/summary?format=xls`).set(t.headers()),
      400,
      'VALIDATION_ERROR',
    );
    expect((await api().get(`/api/fiscal-books/${t.filialHashes[0]}/${period}/summary`).set(other.headers())).status).to.be.oneOf([
      403, 404,
    ]);
  });

  it('POST /sped/efd-icms-ipi → a job; READY with the layout of the period; the file: ISO-8859-1, CRLF, every register per the layout, 9900 right, C/D/E/H add up', async () => {
    const before = await dataSource.manager.countBy(SpedFile, { companyId: t.companyId });
    expectProblem(
      await api().post('/api/sped/efd-icms-ipi').set(t.headers()).send({ filialId: t.filialHashes[0], period: '2026-1' }),
      400,
      'VALIDATION_ERROR',
    );
    expectProblem(
      await api().post('/api/sped/efd-icms-ipi').set(t.headers()).send({ filialId: t.filialHashes[0], period: '2099-01' }),
      422,
      'EFD_PERIOD_IN_FUTURE',
    );
    expect(
      (await api().post('/api/sped/efd-icms-ipi').set(other.headers()).send({ filialId: t.filialHashes[0], period })).status,
    ).to.be.oneOf([403, 404]);
    expectProblem(
      await api()
        .post('/api/sped/efd-icms-ipi')
        .set(other.headers())
        .send({ filialId: other.filialHashes[0], period, inventory: { countId } }),
      404,
      'INVENTORY_COUNT_NOT_FOUND',
    );
    expect(await dataSource.manager.countBy(SpedFile, { companyId: t.companyId })).to.equal(before);

    const res = await api()
      .post('/api/sped/efd-icms-ipi')
      .set(t.headers())
      .send({ filialId: t.filialHashes[0], period, finalidade: '0', perfil: 'A', inventory: { countId }, accountant: ACCOUNTANT });
    expect(res.status, JSON.stringify(res.body)).to.equal(202);
    fileId = res.body.id;
    const status = await settled(fileId);
    expect(status.status, JSON.stringify(status.findings)).to.equal('READY');
    expect(status.blocking).to.equal(0);
    expect(status.findings.map((f: any) => f.code)).to.include('NOT_AUTHORIZED_YET');
    expect(status.layoutVersion).to.equal(String(Number(period.slice(0, 4)) - 2006).padStart(3, '0'));

    const dl = await api().get(`/api/sped/efd-icms-ipi/${fileId}/file`).set(t.headers()).buffer(true).parse(binary);
    expect(dl.status).to.equal(200);
    expect(dl.headers['content-type']).to.match(/^text\/plain; charset=iso-8859-1/i);
    const bytes = dl.body as Buffer;
    text = bytes.toString('latin1');
    expect(Buffer.from(text, 'latin1').equals(bytes)).to.equal(true);
    expect(text.endsWith('\r\n')).to.equal(true);
    expect(text.replace(/\r\n/g, '')).to.not.match(/[\r\n]/);
    const lines = text
      .split('\r\n')
      .slice(0, -1)
      .map((l) => l.slice(1, -1).split('|'));
    for (const l of lines) {
      expect(LAYOUT[l[0]], `register ${l[0]}`).to.not.equal(undefined);
      expect(l.length, `${l[0]} field count`).to.equal(LAYOUT[l[0]].length);
    }
    const regs = lines.map((l) => l[0]);
    expect(regs[0]).to.equal('0000');
    expect(regs[regs.length - 1]).to.equal('9999');
    expect(lines[0][1]).to.equal(status.layoutVersion);
    // 9900 = the real count of each register.
    const count = (r: string) => regs.filter((x) => x === r).length;
    for (const l of lines.filter((x) => x[0] === '9900')) expect(Number(l[2]), `9900 ${l[1]}`).to.equal(count(l[1]));
    expect(new Set(lines.filter((x) => x[0] === '9900').map((x) => x[1]))).to.deep.equal(new Set(regs));
    expect(Number(lines[lines.length - 1][1])).to.equal(lines.length);
    // C100: the cancelled NF-e with COD_SIT 02 and only its key fields; the voided number with 05; NFC-e model 65 without C170.
    const c100 = lines.filter((l) => l[0] === 'C100');
    const cancelled = c100.find((l) => l[8] === cancelledKey)!;
    expect(cancelled[5]).to.equal('02');
    expect(cancelled.slice(9).every((v) => v === '')).to.equal(true);
    expect(c100.find((l) => l[5] === '05' && l[7] === String(voidedNumber))).to.not.equal(undefined);
    expect(c100.filter((l) => l[4] === '65').length).to.equal(3);
    // Own documents carry no C170; the entry's (third party) does.
    const c170 = lines.filter((l) => l[0] === 'C170');
    expect(c170.length).to.equal(1);
    expect(c170[0]).to.include.members(['1102', '000']);
    // PIS/COFINS credit on the credit base (30,00 − ICMS 5,40) at 1,65 % / 7,6 %.
    expect(c170[0].slice(24, 30)).to.deep.equal(['50', '24,60', '1,6500', '', '', '0,41']);
    expect(c170[0].slice(30, 36)).to.deep.equal(['50', '24,60', '7,6000', '', '', '1,87']);
    // Every participant, item and unit used is declared.
    const parts = new Set(lines.filter((l) => l[0] === '0150').map((l) => l[1]));
    for (const l of [...c100, ...lines.filter((x) => x[0] === 'D100')]) if (l[3]) expect(parts.has(l[3]), `0150 of ${l[3]}`).to.equal(true);
    // The carrier's municipality from its CT-e; the hand-typed entry's supplier has none: a warning.
    const d100 = lines.find((x) => x[0] === 'D100')!;
    expect(lines.find((l) => l[0] === '0150' && l[1] === d100[3])![7]).to.equal('3550308');
    expect(status.findings.filter((f: any) => f.code === 'PARTICIPANT_CITY_MISSING').map((f: any) => f.severity)).to.deep.equal([
      'WARNING',
    ]);
    const items = new Set(lines.filter((l) => l[0] === '0200').map((l) => l[1]));
    for (const l of [...c170, ...lines.filter((x) => x[0] === 'H010')]) expect(items.has(l[l[0] === 'C170' ? 2 : 1])).to.equal(true);
    const units = new Set(lines.filter((l) => l[0] === '0190').map((l) => l[1]));
    for (const l of lines.filter((x) => x[0] === '0200')) expect(units.has(l[5])).to.equal(true);
    // C190 per C100 adds to the C100's ICMS; E110 = Σ C190/D190; E116 = E110 to pay.
    const summary = (await api().get(`/api/fiscal-books/${t.filialHashes[0]}/${period}/summary`).set(t.headers())).body;
    const c190 = lines.filter((l) => l[0] === 'C190' || l[0] === 'D190');
    const sumIcms = (pred: (cfop: string) => boolean) => c190.filter((l) => pred(l[2])).reduce((a, l) => a.plus(num(l[6])), new Dec(0));
    const e110 = lines.find((l) => l[0] === 'E110')!;
    expect(num(e110[1]).toNumber()).to.equal(sumIcms((cf) => /^[567]/.test(cf)).toNumber());
    expect(num(e110[1]).toNumber()).to.equal(summary.totals.exits.icms);
    expect(num(e110[5]).toNumber()).to.equal(summary.totals.entries.icms);
    const e116 = lines.filter((l) => l[0] === 'E116').reduce((a, l) => a.plus(num(l[2])), new Dec(0));
    expect(e116.toNumber()).to.equal(num(e110[12]).plus(num(e110[14])).toNumber());
    // D100/D190 for the CT-e; H005 = Σ H010; 1010 present.
    expect(lines.find((l) => l[0] === 'D190')).to.include.members(['1353', '12,00', '150,00', '18,00']);
    const h005 = lines.find((l) => l[0] === 'H005')!;
    const h010 = lines.filter((l) => l[0] === 'H010');
    expect(h010.length).to.equal(1);
    expect(num(h005[2]).toNumber()).to.equal(h010.reduce((a, l) => a.plus(num(l[5])), new Dec(0)).toNumber());
    expect(count('1010')).to.equal(1);
    expect(count('0100')).to.equal(1);
    // The same request again: the same bytes (nothing changed in the month).
    const again = await api()
      .post('/api/sped/efd-icms-ipi')
      .set(t.headers())
      .send({ filialId: t.filialHashes[0], period, finalidade: '0', perfil: 'A', inventory: { countId }, accountant: ACCOUNTANT });
    expect(again.status).to.equal(202);
    const second = await settled(again.body.id);
    expect(second.status).to.equal('READY');
    expect(second.sha256).to.equal(status.sha256);
  });

  it('GET …/trace?register=C190&line=N: the document lines behind a C190; E110 → the C190/D190 lines; wrong line → 404; another tenant → 404', async () => {
    const lines = text.split('\r\n').slice(0, -1);
    const n = lines.findIndex((l) => l.startsWith('|C190|5102|') || l.startsWith('|C190|0')) + 1;
    const first190 = lines.findIndex((l) => l.startsWith('|C190|')) + 1;
    const res = await api()
      .get(`/api/sped/efd-icms-ipi/${fileId}/trace?register=C190&line=${first190 || n}`)
      .set(t.headers());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.sources.length).to.be.greaterThan(0);
    const fields = res.body.fields;
    const sumOpr = res.body.sources.reduce((a: Dec, s: any) => a.plus(s.item.operationValue), new Dec(0));
    expect(sumOpr.toFixed(2).replace('.', ',')).to.equal(fields[4]);
    expect(res.body.sources[0].document).to.include.keys('kind', 'model', 'series', 'number', 'accessKey');
    const e110 = lines.findIndex((l) => l.startsWith('|E110|')) + 1;
    const derived = await api().get(`/api/sped/efd-icms-ipi/${fileId}/trace?register=E110&line=${e110}`).set(t.headers());
    expect(derived.status).to.equal(200);
    expect(derived.body.derivedFrom.map((d: any) => d.register))
      .to.include('C190')
      .and.include('D190');
    expectProblem(
      await api().get(`/api/sped/efd-icms-ipi/${fileId}/trace?register=C100&line=1`).set(t.headers()),
      404,
      'SPED_LINE_NOT_FOUND',
    );
    expectProblem(await api().get(`/api/sped/efd-icms-ipi/${fileId}/trace?register=c1&line=1`).set(t.headers()), 400, 'VALIDATION_ERROR');
    expectProblem(await api().get(`/api/sped/efd-icms-ipi/${fileId}`).set(other.headers()), 404, 'SPED_FILE_NOT_FOUND');
    expectProblem(await api().get(`/api/sped/efd-icms-ipi/${fileId}/file`).set(other.headers()), 404, 'SPED_FILE_NOT_FOUND');
  });

  it('two requests and two queue runs at once: each job is written once (one READY audit row each), the same bytes', async () => {
    const body = { filialId: t.filialHashes[0], period, accountant: ACCOUNTANT };
    const [a, b] = await Promise.all([
      api().post('/api/sped/efd-icms-ipi').set(t.headers()).send(body),
      api().post('/api/sped/efd-icms-ipi').set(t.headers()).send(body),
    ]);
    expect([a.status, b.status]).to.deep.equal([202, 202]);
    await Promise.all([runSpedQueue(), runSpedQueue()]);
    const [sa, sb] = [await settled(a.body.id), await settled(b.body.id)];
    expect([sa.status, sb.status]).to.deep.equal(['READY', 'READY']);
    expect(sa.sha256).to.equal(sb.sha256);
    for (const id of [a.body.id, b.body.id]) {
      const rows = await dataSource.manager.find(AuditLog, {
        where: { companyId: t.companyId, entity: 'sped-file', entityId: decodeId('sped-file', id) },
      });
      expect(rows.map((r) => r.action).sort()).to.deep.equal(['READY', 'REQUESTED']);
    }
  });

  it('without the accountant the file is BLOCKED (0100 missing) and not released; the findings say why', async () => {
    const res = await api().post('/api/sped/efd-icms-ipi').set(t.headers()).send({ filialId: t.filialHashes[0], period });
    expect(res.status).to.equal(202);
    const status = await settled(res.body.id);
    expect(status.status, status.error).to.equal('BLOCKED');
    expect(status.findings.map((f: any) => f.code)).to.include('ACCOUNTANT_MISSING');
    expectProblem(await api().get(`/api/sped/efd-icms-ipi/${res.body.id}/file`).set(t.headers()), 409, 'SPED_FILE_BLOCKED');
  });
});
