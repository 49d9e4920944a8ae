import crypto from 'node:crypto';
import { expect } from 'chai';
import { SMTPServer } from 'smtp-server';
import { invoicesConfig, setInvoicesConfig } from '../../src/core/config/invoices';
import { dataSource } from '../../src/core/db/data-source';
import { OutboxEvent } from '../../src/core/outbox/outbox-event.entity';
import yauzl from 'yauzl';
import { businessToday, fiscalDateTime } from '../../src/core/business-date';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { buildNfe } from '../support/nfe-builder';
import { createTestTenant, TestTenant } from '../support/tenant';
import { canValidateXsd, canVerifySignature, xmlsecErrors, xsdErrors } from '../invoices/conformance-support';
import { canValidateFiles, procEventoErrors, procInutErrors } from '../invoices/fiscal-files-support';
import { fulfilledOrder } from '../invoices/support';
import { counterTenant, Counter } from '../nfce/support';
import { NFE } from '../nfe/nfe-support';
import { runNfceQueue } from '../../src/modules/nfce/transmission-queue';

/*
 * The accountant's package (issue 47): a month with NF-e authorized, cancelled, corrected (CC-e) and one
 * REJECTED (its number a gap until voided), NFC-e authorized and cancelled, and an NF-e received and only
 * staged. The ZIP read back with yauzl: every XML validates (PL_010 with xmllint, the inutilização by the
 * manual's schema) and its signature verifies (xmlsec1); the manifest's sha256 recomputed, its counts and
 * totals equal the service's lists; the gap blocks `complete` until its inutilização; two requests give the
 * same bytes.
 */

const month = businessToday().slice(0, 7);

async function unzip(buf: Buffer): Promise<Map<string, Buffer>> {
  const zipfile = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (e, z) => (e ? reject(e) : resolve(z!))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zipfile.on('entry', (entry: yauzl.Entry) => {
      zipfile.openReadStream(entry, (err, stream) => {
        if (err) return reject(err);
        const chunks: Buffer[] = [];
        stream!.on('data', (c: Buffer) => chunks.push(c));
        stream!.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zipfile.readEntry();
        });
        stream!.on('error', reject);
      });
    });
    zipfile.on('end', () => resolve());
    zipfile.on('error', reject);
    zipfile.readEntry();
  });
  return out;
}

const binary = (req: ReturnType<ReturnType<typeof api>['get']>) =>
  req.buffer(true).parse((r, cb) => {
    const chunks: Buffer[] = [];
    r.on('data', (c: Buffer) => chunks.push(c));
    r.on('end', () => cb(null, Buffer.concat(chunks)));
  });

describe("The accountant's package: GET /fiscal-periods/:filialId/:period/package.zip", function () {
  this.timeout(120_000);
  let c: Counter;
  let t: Counter['t'];
  let other: TestTenant;
  let rejectedId: string;
  let receivedKey: string;
  let offlineKey: string;
  const download = (tenant: TestTenant = t, period = month, filial = tenant.filialHashes[0]) =>
    binary(api().get(`/api/fiscal-periods/${filial}/${period}/package.zip`).set(tenant.headers()));
  const issue = async () => {
    const res = await api()
      .post('/api/invoices/issue')
      .set(t.headers())
      .send({ fulfillmentId: (await fulfilledOrder(t)).fulfillmentId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body;
  };

  before(async () => {
    c = await counterTenant();
    t = c.t;
    await c.save();
    other = await createTestTenant({ environment: 'HOMOLOGATION' });
    const a = await issue();
    const corrected = await api()
      .post(`/api/invoices/${a.id}/correct`)
      .set(t.headers())
      .send({ correction: 'Endereco de entrega: Rua das Palmeiras, numero 45, fundos' });
    expect(corrected.status, JSON.stringify(corrected.body)).to.equal(200);
    const b = await issue();
    expect(
      (await api().post(`/api/invoices/${b.id}/cancel`).set(t.headers()).send({ justification: 'Cliente desistiu da compra' })).status,
    ).to.equal(200);
    t.sim.issuer.faults.rejectNext = { cStat: '539', xMotivo: 'Rejeicao: teste' };
    const rejected = await issue();
    expect(rejected.status).to.equal('REJECTED');
    rejectedId = rejected.id;
    await issue();
    const sale = await c.sell();
    expect(sale.body.fiscalDocument.status).to.equal('AUTHORIZED');
    await c.sell();
    expect(
      (
        await api()
          .post(`/api/nfce/${sale.body.fiscalDocument.id}/cancel`)
          .set(t.headers())
          .send({ justification: 'Cliente desistiu da compra' })
      ).status,
    ).to.equal(200);
    const received = buildNfe({
      recipient: { cnpj: t.cnpj },
      environment: '2',
      issuedAt: fiscalDateTime(),
      items: [{ code: 'A1', description: 'ARROZ TIPO 1 5KG', quantity: '10', unitPrice: '21.90' }],
    });
    receivedKey = received.accessKey;
    const staged = await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: received.xml });
    expect(staged.status, JSON.stringify(staged.body)).to.equal(201);
    // Last, one note issued offline while the authority is down (it stays in contingency until the queue runs).
    t.sim.issuer.downFor(600_000);
    const offline = await c.sell();
    t.sim.issuer.downFor(0);
    expect(offline.body.fiscalDocument).to.include({ status: 'CONTINGENCY', contingency: true });
    offlineKey = offline.body.fiscalDocument.accessKey;
  });

  it('bad month → 400, a future month → 422, another tenant’s filial → 403', async () => {
    expectProblem(await api().get(`/api/fiscal-periods/${t.filialHashes[0]}/2026-00/package.zip`).set(t.headers()), 400);
    expectProblem(
      await api().get(`/api/fiscal-periods/${t.filialHashes[0]}/2099-01/package.zip`).set(t.headers()),
      422,
      'FISCAL_PERIOD_IN_FUTURE',
    );
    expectProblem(
      await api().get(`/api/fiscal-periods/${other.filialHashes[0]}/${month}/package.zip`).set(t.headers()),
      403,
      'FILIAL_NOT_GRANTED',
    );
  });

  it('the files validate (PL_010, xmlsec1), sha256 recomputed; counts and totals equal the lists; the rejected number is a blocking gap; same bytes twice', async () => {
    const first = await download();
    expect(first.status).to.equal(200);
    expect(first.headers['content-type']).to.match(/^application\/zip/);
    expect(first.headers['content-disposition']).to.equal(`attachment; filename="${t.cnpj}-${month.replace('-', '')}-pacote-contabil.zip"`);
    expect(first.headers['x-package-complete']).to.equal('false');
    const second = await download();
    expect(Buffer.compare(first.body as Buffer, second.body as Buffer)).to.equal(0);

    const files = await unzip(first.body as Buffer);
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    expect(manifest).to.include({ cnpj: t.cnpj, period: month, filialId: t.filialHashes[0], complete: false, periodStatus: 'OPEN' });
    // sha256 and size of every file, and no file the manifest does not list.
    expect([...files.keys()].filter((k) => k !== 'manifest.json').sort()).to.deep.equal(manifest.files.map((f: any) => f.path).sort());
    for (const f of manifest.files) {
      const data = files.get(f.path)!;
      expect(crypto.createHash('sha256').update(data).digest('hex'), f.path).to.equal(f.sha256);
      expect(data.length).to.equal(f.bytes);
    }
    // Every XML validates and its signature verifies.
    for (const [name, data] of files) {
      if (name === 'manifest.json') continue;
      const xml = data.toString('utf8');
      if (name.endsWith('-procNFe.xml')) {
        if (canValidateXsd) expect(xsdErrors(xml), name).to.equal(null);
        if (canVerifySignature) expect(xmlsecErrors(xml, 'infNFe'), name).to.equal(null);
      } else if (name.endsWith('-procEventoNFe.xml')) {
        const kind = /-110111-/.test(name) ? 'cancellation' : /-110110-/.test(name) ? 'correction' : 'generic';
        if (canValidateFiles) expect(procEventoErrors(xml, kind), name).to.equal(null);
        if (canVerifySignature) expect(xmlsecErrors(xml, 'infEvento'), name).to.equal(null);
      } else if (name.endsWith('-procInutNFe.xml')) {
        if (canValidateFiles) expect(procInutErrors(xml), name).to.equal(null);
        if (canVerifySignature) expect(xmlsecErrors(xml, 'infInut'), name).to.equal(null);
      } else expect.fail(`unexpected file ${name}`);
    }
    const names = [...files.keys()];
    expect(names.filter((n) => n.startsWith('emitidas/55/serie-001/') && n.endsWith('-procNFe.xml'))).to.have.length(3);
    expect(names.filter((n) => n.startsWith('emitidas/55/serie-001/eventos/') && /-110111-01-/.test(n))).to.have.length(1);
    expect(names.filter((n) => n.startsWith('emitidas/55/serie-001/eventos/') && /-110110-01-/.test(n))).to.have.length(1);
    expect(names.filter((n) => n.startsWith('emitidas/65/serie-001/') && n.endsWith('-procNFe.xml'))).to.have.length(2);
    expect(names.filter((n) => n.startsWith('emitidas/65/serie-001/eventos/') && /-110111-01-/.test(n))).to.have.length(1);
    expect(names.some((n) => n.startsWith('recebidas/55/') && n.endsWith(`${receivedKey}-procNFe.xml`))).to.equal(true);

    // Counts and totals per model/série/status equal the service's own lists.
    const list55 = (await api().get(`/api/invoices/list/${t.filialHashes[0]}?pageSize=100`).set(t.headers())).body.data;
    const list65 = (await api().get(`/api/nfce/list/${t.filialHashes[0]}?pageSize=100`).set(t.headers())).body.data;
    const expected: Record<string, { count: number; total: number }> = {};
    for (const [model, rows] of [
      [55, list55],
      [65, list65],
    ] as const) {
      for (const r of rows as any[]) {
        if (!['AUTHORIZED', 'CANCELLED', 'DENIED'].includes(r.status)) continue;
        const k = `${model}/${r.series}/${r.status}`;
        expected[k] ??= { count: 0, total: 0 };
        expected[k].count += 1;
        expected[k].total = Math.round((expected[k].total + r.total) * 100) / 100;
      }
    }
    const got = Object.fromEntries(
      manifest.issued.totals.map((x: any) => [`${x.model}/${x.series}/${x.status}`, { count: x.count, total: x.total }]),
    );
    expect(got).to.deep.equal(expected);
    expect(got['55/1/AUTHORIZED'].count).to.equal(2);
    expect(got['55/1/CANCELLED'].count).to.equal(1);
    expect(got['65/1/AUTHORIZED'].count).to.equal(1);
    expect(got['65/1/CANCELLED'].count).to.equal(1);
    // CFOP totals: Σ of the items' vProd in the XML of each status.
    const cfopSum = manifest.issued.cfopTotals
      .filter((x: any) => x.model === 55 && x.status === 'AUTHORIZED')
      .reduce((s: number, x: any) => s + x.total, 0);
    const vProd = manifest.issued.documents
      .filter((d: any) => d.model === 55 && d.status === 'AUTHORIZED')
      .reduce(
        (s: number, d: any) => s + Number(/<ICMSTot>[\s\S]*?<vProd>([\d.]+)<\/vProd>/.exec(files.get(d.file)!.toString('utf8'))![1]),
        0,
      );
    expect(Math.round(cfopSum * 100)).to.equal(Math.round(vProd * 100));
    expect(manifest.issued.documents.every((d: any) => d.protocol && /^\d{15}$/.test(d.protocol))).to.equal(true);

    // The rejected number: a gap without inutilização, blocking.
    const rejected = list55.find((r: any) => r.id === rejectedId);
    expect(manifest.blocking).to.deep.equal([
      {
        kind: 'NUMBER_GAP',
        model: 55,
        series: 1,
        first: rejected.number,
        last: rejected.number,
        accessKey: null,
        reason: 'numbers without a document and without an inutilização',
      },
    ]);
    const range55 = manifest.issued.numberRanges.find((r: any) => r.model === 55);
    expect(range55).to.deep.include({
      first: 1,
      last: Math.max(...list55.map((r: any) => r.number)),
      gaps: [{ first: rejected.number, last: rejected.number }],
    });
    // The received NF-e: never manifested, never imported.
    expect(manifest.received.notManifested.map((r: any) => r.accessKey)).to.deep.equal([receivedKey]);
    expect(manifest.received.notImported.map((r: any) => r.accessKey)).to.deep.equal([receivedKey]);
    expect(manifest.received.totals).to.deep.equal([{ model: 55, authorityStatus: 'AUTHORIZED', count: 1, total: 219 }]);
    // The offline note: pending in the manifest, not a gap, no file yet; the close names it too.
    expect(manifest.issued.contingencyPending.map((n: any) => [n.model, n.accessKey, n.status])).to.deep.equal([
      [65, offlineKey, 'CONTINGENCY'],
    ]);
    expect(names.some((n) => n.includes(offlineKey))).to.equal(false);
    // The close names the received NF-e never manifested among what is still open.
    const detail = await api().get(`/api/fiscal-periods/${t.filialHashes[0]}/${month}`).set(t.headers());
    expect(detail.body.pending.find((p: any) => p.kind === 'DFE_NOT_MANIFESTED')).to.include({
      accessKey: receivedKey,
      resourceType: 'nfe-inbound',
    });
    expect(detail.body.pending.find((p: any) => p.kind === 'CONTINGENCY_NOT_TRANSMITTED')).to.include({ accessKey: offlineKey, model: 65 });
  });

  it('voiding the rejected number (procInutNFe in the package) makes it complete; the offline note, transmitted, joins the authorized', async () => {
    expect((await runNfceQueue()).transmitted).to.equal(1);
    const voided = await api()
      .post(`/api/invoices/${rejectedId}/void`)
      .set(t.headers())
      .send({ justification: 'Numero nao utilizado por rejeicao' });
    expect(voided.status, JSON.stringify(voided.body)).to.equal(200);
    const res = await download();
    expect(res.headers['x-package-complete']).to.equal('true');
    const files = await unzip(res.body as Buffer);
    const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
    expect(manifest.complete).to.equal(true);
    expect(manifest.blocking).to.deep.equal([]);
    expect(manifest.issued.voided).to.have.length(1);
    expect(manifest.issued.contingencyPending).to.deep.equal([]);
    expect(manifest.issued.totals.find((x: any) => x.model === 65 && x.status === 'AUTHORIZED').count).to.equal(2);
    const offlineFile = `emitidas/65/serie-001/${offlineKey}-procNFe.xml`;
    expect(manifest.issued.documents.find((d: any) => d.accessKey === offlineKey)).to.include({
      status: 'AUTHORIZED',
      emissionType: 9,
      file: offlineFile,
    });
    if (canValidateXsd) expect(xsdErrors(files.get(offlineFile)!.toString('utf8'))).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(files.get(offlineFile)!.toString('utf8'))).to.equal(null);
    const inut = manifest.issued.voided[0].file as string;
    expect(inut).to.match(/^emitidas\/55\/serie-001\/inutilizacoes\/\d{41}-procInutNFe\.xml$/);
    if (canValidateFiles) expect(procInutErrors(files.get(inut)!.toString('utf8'))).to.equal(null);
    if (canVerifySignature) expect(xmlsecErrors(files.get(inut)!.toString('utf8'), 'infInut')).to.equal(null);
    // A month with nothing: an empty, complete package.
    const empty = await unzip((await download(t, '2026-01')).body as Buffer);
    expect(JSON.parse(empty.get('manifest.json')!.toString('utf8'))).to.include({ complete: true, period: '2026-01' });
    expect([...empty.keys()]).to.deep.equal(['manifest.json']);
  });

  it('POST …/package/send mails the same ZIP to the accountant (sha256 in the answer and the event); no relay → 422; bad email → 400', async () => {
    const smtpBefore = invoicesConfig.smtp;
    const mails: { to: string[]; raw: string }[] = [];
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          cb();
        });
      },
    });
    const send = (body: object) => api().post(`/api/fiscal-periods/${t.filialHashes[0]}/${month}/package/send`).set(t.headers()).send(body);
    try {
      setInvoicesConfig({ smtp: { ...smtpBefore, url: null } });
      expectProblem(await send({ to: 'escritorio@contabilidade.com.br' }), 422, 'SMTP_NOT_CONFIGURED');
      expectProblem(await send({ to: 'nao-e-email' }), 400);
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
      const port = (smtp.server.address() as { port: number }).port;
      setInvoicesConfig({ smtp: { url: `smtp://127.0.0.1:${port}`, from: 'fiscal@mercado.com.br', retries: 1 } });
      const res = await send({ to: 'escritorio@contabilidade.com.br' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const zipBytes = (await download()).body as Buffer;
      expect(res.body).to.include({
        period: month,
        to: 'escritorio@contabilidade.com.br',
        bytes: zipBytes.length,
        sha256: crypto.createHash('sha256').update(zipBytes).digest('hex'),
        complete: true,
      });
      expect(mails).to.have.length(1);
      expect(mails[0].to).to.deep.equal(['escritorio@contabilidade.com.br']);
      const part = mails[0].raw
        .split(/\r?\n--/)
        .find((p) => p.includes(`filename=${res.body.fileName}`) || p.includes(`filename="${res.body.fileName}"`))!;
      const attached = Buffer.from(
        part
          .split(/\r?\n\r?\n/)
          .slice(1)
          .join('')
          .replace(/[^A-Za-z0-9+/=]/g, ''),
        'base64',
      );
      expect(Buffer.compare(attached, zipBytes)).to.equal(0);
      const events = await dataSource.manager.findBy(OutboxEvent, { companyId: t.companyId, type: 'fiscal-period.package-sent' });
      expect(events.map((e) => e.data.sha256)).to.deep.equal([res.body.sha256]);
    } finally {
      setInvoicesConfig({ smtp: smtpBefore });
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    }
  });
});
