import { expect } from 'chai';
import express, { Request, Response } from 'express';
import supertest from 'supertest';
import { isMysql } from '../../src/core/db/engine';
import { inTransaction } from '../../src/core/db/transaction';
import { errorMiddleware } from '../../src/core/errors/error-middleware';
import { idempotent } from '../../src/core/idempotency/idempotency.middleware';
import { dataSource } from '../../src/core/db/data-source';
import { IdempotencyKey } from '../../src/core/idempotency/idempotency-key.entity';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import { allowNextQuery, NFE, sefazTenant } from '../sefaz/support';
import { api } from '../support/api';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';

describe('Idempotency-Key (SPEC §0)', () => {
  let t: TestTenant;
  before(async () => {
    t = await createTestTenant();
  });

  const create = (key: string, body: object) => api().post('/api/catalog/products').set(t.headers()).set('Idempotency-Key', key).send(body);

  it('two parallel requests with the same key → one effect, same response', async () => {
    const body = { name: 'Água Mineral 500ml', unit: 'UN', price: '2.50' };
    const [a, b] = await Promise.all([create('key-parallel-1', body), create('key-parallel-1', body)]);
    expect(a.status).to.equal(201);
    expect(b.status).to.equal(201);
    expect(b.body).to.deep.equal(a.body);
    expect(await dataSource.manager.countBy(Product, { companyId: t.companyId, name: body.name })).to.equal(1);
  });

  it('a retry later replays the first response', async () => {
    const body = { name: 'Suco de Uva 1L', unit: 'UN' };
    const first = await create('key-retry-1', body);
    const again = await create('key-retry-1', body);
    expect(again.status).to.equal(201);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body.id).to.equal(first.body.id);
    expect(await dataSource.manager.countBy(Product, { companyId: t.companyId, name: body.name })).to.equal(1);
  });

  it('the same key with another body → 409', async () => {
    await create('key-reuse-1', { name: 'Biscoito', unit: 'PCT' });
    expectProblem(await create('key-reuse-1', { name: 'Bolacha', unit: 'PCT' }), 409, 'IDEMPOTENCY_KEY_REUSED');
  });

  it('keys are per company', async () => {
    const other = await createTestTenant();
    const body = { name: 'Sabão em pó', unit: 'PCT' };
    const a = await create('key-shared-1', body);
    const b = await api().post('/api/catalog/products').set(other.headers()).set('Idempotency-Key', 'key-shared-1').send(body);
    expect(b.status).to.equal(201);
    expect(b.body.id).to.not.equal(a.body.id);
  });

  it('a request refused by validation does not claim the key', async () => {
    const bad = await create('key-bad-1', { unit: 'UN' });
    expectProblem(bad, 400, 'VALIDATION_ERROR');
    // Validation runs before the key is claimed: the key stays free for a corrected request.
    expect((await create('key-bad-1', { name: 'Corrigido', unit: 'UN' })).status).to.equal(201);
  });

  const keyRow = (key: string, companyId = t.companyId) => dataSource.manager.findOneBy(IdempotencyKey, { companyId, key });
  const products = (name: string) => dataSource.manager.countBy(Product, { companyId: t.companyId, name });

  it('the outcome is stored with the effect: DONE, the response, no lease left', async () => {
    const res = await create('key-outcome-1', { name: 'Café 500g', unit: 'PCT' });
    expect(res.status).to.equal(201);
    const row = (await keyRow('key-outcome-1'))!;
    expect(row).to.include({
      state: 'DONE',
      responseStatus: 201,
      responseContentType: 'application/json',
      leaseOwner: null,
      leaseExpiresAt: null,
    });
    expect(row.responseBody).to.deep.equal(res.body);
  });

  it('a key left IN_PROGRESS by a dead process is taken over once its lease ran out: the request runs once', async () => {
    const body = { name: 'Arroz 5kg', unit: 'PCT' };
    const first = await create('key-takeover-1', body);
    // As if the process had died before its commit: no product, the key held by a lease that ran out.
    await dataSource.manager.delete(Product, { companyId: t.companyId, name: body.name });
    await dataSource.manager.update(
      IdempotencyKey,
      { companyId: t.companyId, key: 'key-takeover-1' },
      {
        state: 'IN_PROGRESS',
        responseStatus: null,
        responseBody: null as never,
        leaseOwner: 'dead-process',
        leaseExpiresAt: new Date(Date.now() - 1000),
      },
    );
    const again = await create('key-takeover-1', body);
    expect(again.status).to.equal(201);
    expect(again.headers['idempotent-replayed']).to.equal(undefined);
    expect(again.body.id).to.not.equal(first.body.id);
    expect(await products(body.name)).to.equal(1);
    expect(await keyRow('key-takeover-1')).to.include({ state: 'DONE', leaseOwner: null });
    // Replays from now on.
    const third = await create('key-takeover-1', body);
    expect(third.headers['idempotent-replayed']).to.equal('true');
    expect(third.body.id).to.equal(again.body.id);
  });

  it('a retry within a live lease waits for the holder and replays its outcome (no takeover)', async () => {
    const body = { name: 'Feijão 1kg', unit: 'PCT' };
    const first = await create('key-live-1', body);
    const stored = (await keyRow('key-live-1'))!;
    await dataSource.manager.update(
      IdempotencyKey,
      { id: stored.id },
      { state: 'IN_PROGRESS', leaseOwner: 'live-process', leaseExpiresAt: new Date(Date.now() + 60_000) },
    );
    const waiting = create('key-live-1', body);
    await new Promise((r) => setTimeout(r, 300));
    await dataSource.manager.update(IdempotencyKey, { id: stored.id }, { state: 'DONE', leaseOwner: null, leaseExpiresAt: null });
    const res = await waiting;
    expect(res.status).to.equal(201);
    expect(res.headers['idempotent-replayed']).to.equal('true');
    expect(res.body.id).to.equal(first.body.id);
    expect(await products(body.name)).to.equal(1);
  });

  it('a refusal rolls the work back and is replayed as the answer (4xx)', async () => {
    await create('key-code-1', { name: 'Leite 1L', unit: 'UN', code: 'LEITE-1' });
    const refused = await create('key-code-2', { name: 'Leite integral 1L', unit: 'UN', code: 'LEITE-1' });
    expect(refused.status).to.equal(409);
    const again = await create('key-code-2', { name: 'Leite integral 1L', unit: 'UN', code: 'LEITE-1' });
    expect(again.status).to.equal(409);
    expect(again.headers['idempotent-replayed']).to.equal('true');
    expect(again.body.code).to.equal(refused.body.code);
    expect(await products('Leite integral 1L')).to.equal(0);
    expect(await keyRow('key-code-2')).to.include({ state: 'DONE', responseStatus: 409 });
  });

  it('a conflict the retries did not resolve (409 CONCURRENT_UPDATE, retryable) is not kept: the retry with the key runs', async function () {
    this.timeout(30_000);
    // A handler whose unit meets a deadlock (on Galera, a certification conflict) on every attempt, until told otherwise.
    let conflicting = true;
    let runs = 0;
    const app = express();
    app.use(express.json());
    app.use((req, _res, next) => {
      req.ctx = { companyId: t.companyId } as Request['ctx'];
      next();
    });
    app.post(
      '/contended',
      idempotent(async (req: Request, res: Response) => {
        runs++;
        await inTransaction(req.ctx, (em) =>
          em.insert(Product, {
            companyId: t.companyId,
            code: `CONTENDED-${runs}`,
            name: 'Contended',
            searchName: 'contended',
            unit: 'UN',
            active: true,
          } as never),
        );
        if (conflicting)
          throw Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
            code: 'ER_LOCK_DEADLOCK',
            errno: 1213,
          });
        res.status(201).json({ ok: true });
      }),
    );
    app.use(errorMiddleware);
    const first = await supertest(app).post('/contended').set('Idempotency-Key', 'key-contended-1').send({});
    expect([first.status, first.body.code, first.body.retryable]).to.deep.equal([409, 'CONCURRENT_UPDATE', true]);
    expect(await keyRow('key-contended-1'), 'the key is free again').to.equal(null);
    conflicting = false;
    const retry = await supertest(app).post('/contended').set('Idempotency-Key', 'key-contended-1').send({});
    expect([retry.status, retry.headers['idempotent-replayed']]).to.deep.equal([201, undefined]);
    expect(await products('Contended'), 'the work of the conflicting attempts rolled back, the retry’s committed').to.equal(1);
    expect(await keyRow('key-contended-1')).to.include({ state: 'DONE', responseStatus: 201 });
  });

  it("429 (the authority's quiet period) is not kept: the key is free and a later retry runs", async function () {
    this.timeout(30_000);
    const s = await sefazTenant();
    const consultar = (key: string) => api().post(`${NFE}/consultar`).set(s.headers()).set('Idempotency-Key', key);
    expect((await consultar('sync-1')).status).to.equal(200);
    expectProblem(await consultar('sync-2'), 429, 'SEFAZ_WAIT_REQUIRED');
    expect(await keyRow('sync-2', s.companyId)).to.equal(null);
    await allowNextQuery(s);
    const later = await consultar('sync-2');
    expect(later.status).to.equal(200);
    expect(later.headers['idempotent-replayed']).to.equal(undefined);
    expect(await keyRow('sync-2', s.companyId)).to.include({ state: 'DONE', responseStatus: 200 });
  });

  it('an attempt whose key was taken over (it stalled past its lease) rolls its work back', async function () {
    // The embedded database has one connection: the takeover below would run inside the stalled
    // transaction itself. There a takeover queues behind the running transaction anyway.
    if (!isMysql) this.skip();
    // A route of its own whose handler writes, then stalls until the test lets it go on.
    let resume!: () => void;
    const stalled = new Promise<void>((r) => (resume = r));
    let reached!: () => void;
    const writing = new Promise<void>((r) => (reached = r));
    const app = express();
    app.use(express.json());
    app.use((req, _res, next) => {
      req.ctx = { companyId: t.companyId } as Request['ctx'];
      next();
    });
    app.post(
      '/stall',
      idempotent(async (req: Request, res: Response) => {
        await inTransaction(req.ctx, (em) =>
          em.insert(Product, {
            companyId: t.companyId,
            code: 'STALL-1',
            name: 'Stalled',
            searchName: 'stalled',
            unit: 'UN',
            active: true,
          } as never),
        );
        reached();
        await stalled;
        res.status(201).json({ ok: true });
      }),
    );
    app.use(errorMiddleware);
    const pending = supertest(app).post('/stall').set('Idempotency-Key', 'key-fenced-1').send({});
    const answer = pending.then((r) => r);
    await writing;
    // Another process took the key over meanwhile.
    await dataSource.manager.update(
      IdempotencyKey,
      { companyId: t.companyId, key: 'key-fenced-1' },
      { leaseOwner: 'the-retry', leaseExpiresAt: new Date(Date.now() + 60_000) },
    );
    resume();
    const res = await answer;
    expect([res.status, res.body.code]).to.deep.equal([409, 'IDEMPOTENCY_KEY_IN_PROGRESS']);
    expect(await products('Stalled')).to.equal(0);
    expect(await keyRow('key-fenced-1')).to.include({ state: 'IN_PROGRESS', leaseOwner: 'the-retry' });
  });
});
