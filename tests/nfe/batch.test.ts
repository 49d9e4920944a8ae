import { expect } from 'chai';
import { nfeConfig } from '../../src/core/config/nfe';
import { dataSource } from '../../src/core/db/data-source';
import { BatchRunner } from '../../src/modules/inbound-nfe/batch/batch-runner';
import { readUpload } from '../../src/modules/inbound-nfe/batch/batch-upload';
import { createBatch } from '../../src/modules/inbound-nfe/batch/batch.service';
import { NfeBatchFile } from '../../src/modules/inbound-nfe/entities/nfe-batch-file.entity';
import { NfeBatchJob } from '../../src/modules/inbound-nfe/entities/nfe-batch-job.entity';
import { insertInbound } from '../../src/modules/inbound-nfe/nfe-inbound.repository';
import { compressXml } from '../../src/modules/inbound-nfe/xml-storage';
import { api } from '../support/api';
import { buildNfe, DEFAULT_ISSUER_CNPJ } from '../support/nfe-builder';
import { expectProblem } from '../support/problem';
import { createTestTenant, randomCnpj } from '../support/tenant';
import { issuerEvent, lieAboutSizes, renameEntries, parseSse, sseText, waitForJob, zipOf } from './batch-support';
import { countOf, NFE, NfeTenant, nfeTenant, rowsOf } from './nfe-support';

const ITEMS = [{ code: 'A1', quantity: '2', unitPrice: '10.00' }];
const upload = (t: NfeTenant, body: Buffer, type = 'application/zip') =>
  api().post(`${NFE}/batch`).set(t.headers()).set('Content-Type', type).send(body);
const jobs = (companyId: number) => dataSource.manager.countBy(NfeBatchJob, { companyId });

describe('Batch upload of NF-e XML (ZIP / multipart) with progress', function () {
  this.timeout(180_000);
  let t: NfeTenant;

  before(async () => {
    t = await nfeTenant();
  });

  describe('a ZIP mixing new, duplicate, invalid and unsafe entries, and events', () => {
    let res: any;
    let done: any;
    const nfes: ReturnType<typeof buildNfe>[] = [];
    let preStaged: ReturnType<typeof buildNfe>;
    let feedSummary: ReturnType<typeof buildNfe>;
    let feedFull: ReturnType<typeof buildNfe>;
    let baseline: { inbound: number; received: number };

    before(async () => {
      for (let i = 0; i < 30; i++) nfes.push(await t.nfe({ items: ITEMS }));
      // Already stored by a manual upload, and known from the feed (summary only / full XML).
      preStaged = await t.nfe({ items: ITEMS });
      expect((await api().post(`${NFE}/stage-xml`).set(t.headers()).send({ xml: preStaged.xml })).status).to.equal(201);
      feedSummary = await t.nfe({ items: ITEMS });
      feedFull = await t.nfe({ items: ITEMS });
      const em = dataSource.manager;
      const base = {
        companyId: t.companyId,
        filialId: t.filialIds[0],
        issuerDocument: DEFAULT_ISSUER_CNPJ,
        issuerName: 'FORNECEDOR',
        issuerSearch: 'FORNECEDOR',
        issuedAt: new Date('2025-03-10T13:00:00Z'),
        total: '20.00' as never,
        nsu: '000000000000001',
        authorityStatus: 'AUTHORIZED' as const,
        environment: 'PRODUCTION' as const,
        manifestation: 'CIENCIA' as const,
        source: 'SEFAZ' as const,
        importStatus: 'PENDING' as const,
        version: 1,
      };
      await insertInbound(em, { ...base, accessKey: feedSummary.accessKey, kind: 'SUMMARY', hasXml: false });
      await insertInbound(em, {
        ...base,
        accessKey: feedFull.accessKey,
        kind: 'FULL',
        hasXml: true,
        xmlGzip: compressXml(feedFull.xml),
        nsu: '000000000000002',
      });
      baseline = {
        inbound: await countOf('nfe_inbound', t.companyId),
        received: await countOf('outbox_event', t.companyId, "type = 'nfe.inbound.received'"),
      };

      const otherRecipient = buildNfe({ recipient: { cnpj: randomCnpj() }, items: ITEMS });
      const badSignature = (await t.nfe({ items: ITEMS })).xml.replace('<vNF>', '<vNF>1');
      const zip = await zipOf([
        { name: 'notas/', directory: true },
        ...nfes.map((n, i) => ({ name: `notas/nfe-${String(i + 1).padStart(2, '0')}.xml`, content: n.xml })),
        { name: 'notas/repetida.xml', content: nfes[3].xml },
        { name: 'ja-enviada.xml', content: preStaged.xml },
        { name: 'do-feed-resumo.xml', content: feedSummary.xml },
        { name: 'do-feed-completa.xml', content: feedFull.xml },
        { name: 'outro-destinatario.xml', content: otherRecipient.xml },
        { name: 'assinatura.xml', content: badSignature },
        { name: 'leia-me.txt', content: 'not xml' },
        { name: 'binario.xml', content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]) },
        { name: 'QQ/QQ/etc/passwd.xml', content: nfes[0].xml },
        {
          name: 'cte.xml',
          content: '<?xml version="1.0"?><cteProc xmlns="http://www.portalfiscal.inf.br/cte" versao="4.00"><CTe/></cteProc>',
        },
        { name: 'outro.xml', content: '<catalogo><item/></catalogo>' },
        // Events come after their NF-e whatever their place in the archive.
        { name: 'eventos/cancelamento.xml', content: issuerEvent(nfes[5].accessKey) },
        { name: 'eventos/cce.xml', content: issuerEvent(nfes[6].accessKey, { type: '110110' }) },
        { name: 'eventos/cancelamento-repetido.xml', content: issuerEvent(nfes[5].accessKey) },
        { name: 'eventos/sem-nota.xml', content: issuerEvent(buildNfe({ recipient: { cnpj: t.document }, items: ITEMS }).accessKey) },
        { name: 'eventos/alterado.xml', content: issuerEvent(nfes[7].accessKey, { tamper: true }) },
        { name: 'eventos/nao-registrado.xml', content: issuerEvent(nfes[8].accessKey, { cStat: '573' }) },
      ]);
      res = await upload(t, renameEntries(zip, 'QQ/QQ/', '../../'));
      done = await waitForJob(t, res.body.id);
    });

    it('answers 202 at once with the job and where to follow it', () => {
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ filialId: t.filialHashes[0], format: 'ZIP' });
      expect(['QUEUED', 'RUNNING', 'DONE']).to.include(res.body.status);
      expect(res.body.progress.total).to.equal(47);
      expect(res.headers.location).to.equal(res.body.links.self);
      expect(res.body.links.stream).to.match(/\/batch\/stream\//);
    });

    it('ends with every file accounted for', () => {
      expect(done.status).to.equal('DONE');
      expect(done.progress).to.deep.equal({ done: 47, total: 47, percent: 100 });
      expect(done.counts).to.deep.equal({ staged: 31 + 2, duplicates: 4, invalid: 10, pending: 0 });
    });

    it('reports the outcome of each file with its problem code', async () => {
      const all = await waitForJob(t, res.body.id, '?pageSize=100');
      const by = Object.fromEntries(all.files.data.map((f: any) => [f.name, f]));
      expect(all.files.pagination.total).to.equal(47);
      expect(by['notas/nfe-01.xml']).to.include({ outcome: 'STAGED', kind: 'NFE', accessKey: nfes[0].accessKey, problem: null });
      expect(by['notas/nfe-01.xml'].inboundId).to.be.a('string');
      expect(by['notas/repetida.xml']).to.include({
        outcome: 'DUPLICATE',
        accessKey: nfes[3].accessKey,
        inboundId: by['notas/nfe-04.xml'].inboundId,
      });
      expect(by['ja-enviada.xml']).to.include({ outcome: 'DUPLICATE', message: 'Already stored (source UPLOAD)' });
      expect(by['do-feed-completa.xml']).to.include({ outcome: 'DUPLICATE', message: 'Already stored (source SEFAZ)' });
      expect(by['do-feed-resumo.xml']).to.include({
        outcome: 'STAGED',
        message: 'XML attached to the summary received from the tax authority',
      });
      const code = (name: string) => by[name].problem?.code;
      expect(by['outro-destinatario.xml'].outcome).to.equal('INVALID');
      expect(code('outro-destinatario.xml')).to.match(/RECIPIENT/);
      expect(code('assinatura.xml')).to.match(/SIGNATURE|DIGEST|TOTAL/);
      expect(code('leia-me.txt')).to.equal('BATCH_ENTRY_NOT_XML');
      expect(code('binario.xml')).to.equal('BATCH_ENTRY_NOT_XML');
      expect(code('../../etc/passwd.xml')).to.equal('BATCH_ENTRY_UNSAFE_NAME');
      expect(by['cte.xml']).to.include({ outcome: 'INVALID', kind: 'CTE' });
      // CT-e go to the CT-e module's handler (tests/cte/cte-batch.test.ts), which refuses this empty one.
      expect(code('cte.xml')).to.equal('CTE_UNSUPPORTED_DOCUMENT');
      expect(code('outro.xml')).to.equal('BATCH_DOCUMENT_UNSUPPORTED');
      expect(by['eventos/cancelamento.xml']).to.include({
        outcome: 'STAGED',
        kind: 'EVENT',
        message: 'Cancellation by the issuer applied: the record is CANCELLED',
      });
      expect(by['eventos/cce.xml']).to.include({ outcome: 'STAGED', message: 'Correction letter (CC-e) 1 recorded' });
      expect(by['eventos/cancelamento-repetido.xml'].outcome).to.equal('DUPLICATE');
      expect(code('eventos/sem-nota.xml')).to.equal('NFE_EVENT_UNKNOWN_INVOICE');
      expect(code('eventos/alterado.xml')).to.equal('NFE_EVENT_SIGNATURE_INVALID');
      expect(code('eventos/nao-registrado.xml')).to.equal('NFE_EVENT_NOT_REGISTERED');
      const invalidOnly = await api().get(`${NFE}/batch/${res.body.id}/${t.filialHashes[0]}?outcome=INVALID`).set(t.headers());
      expect(invalidOnly.body.files.data).to.have.length(10);
    });

    it('stored the records, applied the events and wrote audit and events once per record', async () => {
      const rows = await rowsOf('nfe_inbound', t.companyId);
      expect(rows).to.have.length(baseline.inbound + 30);
      const byKey = Object.fromEntries(rows.map((r) => [r.access_key, r]));
      for (const n of nfes) expect(byKey[n.accessKey]).to.include({ source: 'UPLOAD', kind: 'FULL' });
      expect(byKey[nfes[5].accessKey].authority_status).to.equal('CANCELLED');
      expect(byKey[feedSummary.accessKey]).to.include({ kind: 'FULL', source: 'SEFAZ' });
      expect(await countOf('outbox_event', t.companyId, "type = 'nfe.inbound.received'")).to.equal(baseline.received + 30);
      expect(await countOf('outbox_event', t.companyId, "type = 'nfe.inbound.cancelled'")).to.equal(1);
      expect(await countOf('nfe_inbound_event', t.companyId, "type = 'AUTHORITY_EVENT' AND event_code = '110110'")).to.equal(1);
      // The job itself: created and completed, audited and published once each.
      const jobId = (await dataSource.manager.findOneByOrFail(NfeBatchJob, { companyId: t.companyId, total: 47 })).id;
      expect(
        (await rowsOf('audit_log', t.companyId, "entity = 'nfe-batch' AND entity_id = ?", [jobId])).map((a) => a.action),
      ).to.deep.equal(['CREATED', 'COMPLETED']);
      const jobEvents = (await rowsOf('outbox_event', t.companyId, "aggregate_type = 'nfe-batch' AND aggregate_id = ?", [jobId])).map(
        (e) => e.type,
      );
      expect(jobEvents).to.deep.equal(['nfe.batch.created', 'nfe.batch.completed']);
      // The contents are dropped once each file has its outcome.
      const kept = await dataSource.query('SELECT COUNT(*) AS n FROM nfe_batch_file WHERE company_id = ? AND content_gz IS NOT NULL', [
        t.companyId,
      ]);
      expect(Number(kept[0].n)).to.equal(0);
    });

    it('streams the same progress as server-sent events', async () => {
      const s = await api().get(`${NFE}/batch/stream/${res.body.id}/${t.filialHashes[0]}`).set(t.headers()).buffer(true).parse(sseText);
      expect(s.status).to.equal(200);
      expect(s.headers['content-type']).to.match(/^text\/event-stream/);
      const events = parseSse(s.body);
      expect(events.filter((e) => e.event === 'file')).to.have.length(47);
      expect(events.filter((e) => e.event === 'progress').length).to.be.at.least(1);
      const last = events[events.length - 1];
      expect(last.event).to.equal('done');
      expect(last.data.progress).to.deep.equal({ done: 47, total: 47, percent: 100 });
    });

    it('another company sees nothing (404), a filial not granted is refused (403), a malformed id is 400', async () => {
      const other = await createTestTenant();
      expectProblem(
        await api().get(`${NFE}/batch/${res.body.id}/${other.filialHashes[0]}`).set(other.headers()),
        404,
        'NFE_BATCH_NOT_FOUND',
      );
      expectProblem(await api().get(`${NFE}/batch/${res.body.id}/${t.filialHashes[1]}`).set(t.headers()), 404, 'NFE_BATCH_NOT_FOUND');
      expectProblem(
        await api()
          .get(`${NFE}/batch/${res.body.id}/${t.filialHashes[0]}`)
          .set(t.headersWith({ filiais: [t.filialHashes[1]] })),
        403,
      );
      expectProblem(await api().get(`${NFE}/batch/stream/${res.body.id}/${other.filialHashes[0]}`).set(other.headers()), 404);
      expectProblem(await api().get(`${NFE}/batch/x!/${t.filialHashes[0]}`).set(t.headers()), 400, 'INVALID_ID');
    });
  });

  describe('multipart and idempotency', () => {
    it('takes a multipart set of XML files', async () => {
      const a = await t.nfe({ items: ITEMS });
      const b = await t.nfe({ items: ITEMS });
      const res = await api()
        .post(`${NFE}/batch`)
        .set(t.headers())
        .attach('files', Buffer.from(a.xml), 'a.xml')
        .attach('files', Buffer.from(b.xml), 'b.xml')
        .attach('files', Buffer.from('{}'), 'c.json');
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.format).to.equal('MULTIPART');
      const done = await waitForJob(t, res.body.id);
      expect(done.counts).to.deep.equal({ staged: 2, duplicates: 0, invalid: 1, pending: 0 });
    });

    it('a retry with the same Idempotency-Key and body answers the same job', async () => {
      const zip = await zipOf([{ name: 'x.xml', content: (await t.nfe({ items: ITEMS })).xml }]);
      const key = `batch-${Date.now()}`;
      const first = await upload(t, zip).set('Idempotency-Key', key);
      const again = await upload(t, zip).set('Idempotency-Key', key);
      expect(again.status).to.equal(202);
      expect(again.body.id).to.equal(first.body.id);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      const other = await upload(t, await zipOf([{ name: 'y.xml', content: 'x' }])).set('Idempotency-Key', key);
      expectProblem(other, 409, 'IDEMPOTENCY_KEY_REUSED');
      await waitForJob(t, first.body.id);
    });
  });

  describe('limits that pass', () => {
    it('takes exactly 2,000 files (here documents it does not stage: answered DONE at once)', async () => {
      const zip = await zipOf(Array.from({ length: 2000 }, (_v, i) => ({ name: `f${i}.xml`, content: '<a/>' })));
      const res = await upload(t, zip);
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body).to.include({ status: 'DONE' });
      expect(res.body.counts).to.deep.equal({ staged: 0, duplicates: 0, invalid: 2000, pending: 0 });
    });

    it('follows a running job on the stream until it is done', async () => {
      const nfes = await Promise.all(Array.from({ length: 12 }, () => t.nfe({ items: ITEMS })));
      const res = await upload(t, await zipOf(nfes.map((n, i) => ({ name: `s${i}.xml`, content: n.xml }))));
      const s = await api().get(`${NFE}/batch/stream/${res.body.id}/${t.filialHashes[0]}`).set(t.headers()).buffer(true).parse(sseText);
      const events = parseSse(s.body);
      expect(events.filter((e) => e.event === 'file').map((e) => e.data.outcome)).to.deep.equal(Array(12).fill('STAGED'));
      const progress = events.filter((e) => e.event === 'progress').map((e) => e.data.progress.done);
      expect(progress).to.deep.equal([...progress].sort((a, b) => a - b));
      expect(events[events.length - 1]).to.deep.include({ event: 'done' });
      expect(events[events.length - 1].data.counts.staged).to.equal(12);
    });
  });

  describe('refused uploads write nothing', () => {
    let count: number;
    before(async () => {
      count = await jobs(t.companyId);
    });
    after(async () => {
      expect(await jobs(t.companyId)).to.equal(count);
    });

    it('a ZIP bomb by ratio → 422 BATCH_ZIP_BOMB', async () => {
      const zip = await zipOf([{ name: 'bomba.xml', content: Buffer.alloc(4 * 1024 * 1024, 0x20) }]);
      expectProblem(await upload(t, zip), 422, 'BATCH_ZIP_BOMB');
    });

    it('an entry that inflates beyond its declared size → 422 BATCH_ZIP_BOMB', async () => {
      const text = `<a>${'x'.repeat(200_000)}</a>`;
      const zip = lieAboutSizes(
        await zipOf([{ name: 'mentira.xml', content: Buffer.from(text.split('').map((_c, i) => 65 + ((i * 7919) % 26))) }]),
        1000,
      );
      expectProblem(await upload(t, zip), 422, 'BATCH_ZIP_BOMB');
    });

    it('more than 2,000 files → 422 BATCH_TOO_MANY_FILES', async () => {
      const zip = await zipOf(Array.from({ length: 2001 }, (_v, i) => ({ name: `f${i}.xml`, content: '<a/>' })));
      expectProblem(await upload(t, zip), 422, 'BATCH_TOO_MANY_FILES');
    });

    it('not a ZIP → 400; empty → 400; JSON → 415; no files → 400', async () => {
      expectProblem(await upload(t, Buffer.from('PK not really')), 400, 'BATCH_INVALID_ZIP');
      expectProblem(await api().post(`${NFE}/batch`).set(t.headers()).set('Content-Type', 'application/zip'), 400, 'BATCH_EMPTY');
      expectProblem(await api().post(`${NFE}/batch`).set(t.headers()).send({ xml: '<a/>' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      expectProblem(await upload(t, await zipOf([{ name: 'vazio/', directory: true }])), 400, 'BATCH_EMPTY');
    });

    it('the total uncompressed size is bounded (limits of the reader)', async () => {
      const zip = await zipOf([
        { name: 'a.xml', content: `<a>${'y'.repeat(3000)}</a>`, compress: false },
        { name: 'b.xml', content: `<a>${'y'.repeat(3000)}</a>`, compress: false },
      ]);
      const limits = { ...nfeConfig.batch, maxTotalBytes: 5000 };
      try {
        await readUpload(zip, 'application/zip', limits);
        expect.fail('accepted');
      } catch (err) {
        expect((err as { code: string }).code).to.equal('BATCH_TOO_LARGE');
      }
    });
  });

  describe('a killed server resumes the job; two workers never do a file twice', () => {
    it('resumes after the dead lease expires, with nothing half-imported', async () => {
      const nfes = await Promise.all(Array.from({ length: 40 }, () => t.nfe({ items: ITEMS })));
      const zip = await zipOf(nfes.map((n, i) => ({ name: `n${i}.xml`, content: n.xml })));
      const ctx = { ...t.ctx, filialId: t.filialIds[0], grantedFiliais: '*' as const, scopes: ['*'] };
      const job = await createBatch(ctx, zip, 'application/zip', { start: false });
      let now = Date.now();
      const clock = () => new Date(now);
      // The process dies right after its 8th file committed.
      const doomed: BatchRunner = new BatchRunner({
        owner: 'doomed',
        leaseMs: 60_000,
        now: clock,
        onSettled: (j) => j.processed === 8 && doomed.kill(),
      });
      await doomed.runJob(t.companyId, job.id);
      const half = await dataSource.manager.findOneByOrFail(NfeBatchJob, { id: job.id });
      expect(half).to.include({ status: 'RUNNING', leaseOwner: 'doomed' });
      expect(half.processed).to.equal(8);
      // Every settled file has its record; no pending file has one.
      const files = await dataSource.manager.findBy(NfeBatchFile, { jobId: job.id, companyId: t.companyId });
      const keys = new Set((await rowsOf('nfe_inbound', t.companyId)).map((r) => r.access_key));
      const fileKey = (f: NfeBatchFile) => nfes[Number(/n(\d+)\.xml/.exec(f.name)![1])].accessKey;
      expect(files.filter((f) => f.status === 'STAGED').length).to.equal(half.processed);
      for (const f of files) expect(keys.has(fileKey(f))).to.equal(f.status === 'STAGED');

      const rescuer = new BatchRunner({ owner: 'rescuer', now: clock });
      expect(await rescuer.sweep()).to.equal(0);
      now += 61_000;
      const second = new BatchRunner({ owner: 'second', now: clock });
      // Two workers race for the expired job: one wins, files are done once.
      await Promise.all([rescuer.sweep(), second.sweep()]);
      const end = await dataSource.manager.findOneByOrFail(NfeBatchJob, { id: job.id });
      expect(end).to.include({ status: 'DONE', processed: 40, staged: 40, duplicates: 0, invalid: 0, leaseOwner: null });
      for (const n of nfes) expect(await countOf('nfe_inbound', t.companyId, 'access_key = ?', [n.accessKey])).to.equal(1);
      const ids = (await rowsOf('nfe_inbound', t.companyId))
        .filter((r) => nfes.some((n) => n.accessKey === r.access_key))
        .map((r) => Number(r.id));
      const received = (await rowsOf('outbox_event', t.companyId, "type = 'nfe.inbound.received'")).filter((e) =>
        ids.includes(Number(e.aggregate_id)),
      );
      expect(received).to.have.length(40);
      const orders = (await dataSource.manager.findBy(NfeBatchFile, { jobId: job.id, companyId: t.companyId }))
        .map((f) => f.processedOrder)
        .sort((a, b) => a! - b!);
      expect(orders).to.deep.equal(Array.from({ length: 40 }, (_v, i) => i + 1));
    });
  });
});
