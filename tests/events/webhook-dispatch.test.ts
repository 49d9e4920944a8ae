import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dataSource } from '../../src/core/db/data-source';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { publishEvent } from '../../src/core/outbox/outbox.service';
import { WebhookDelivery } from '../../src/modules/events/entities/webhook-delivery.entity';
import { WebhookDispatcher } from '../../src/modules/events/webhook-dispatcher';
import { api } from '../support/api';
import { createTestTenant, TestTenant } from '../support/tenant';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A webhook receiver whose answers the test controls; records every request's event id. */
class Receiver {
  readonly ids: string[] = [];
  open = 0;
  maxOpen = 0;
  private readonly held: http.ServerResponse[] = [];
  private server!: http.Server;
  constructor(private readonly answer: (res: http.ServerResponse, id: string, nth: number) => void) {}

  async listen(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const id = String(req.headers['webhook-id']);
      this.ids.push(id);
      this.open++;
      this.maxOpen = Math.max(this.maxOpen, this.open);
      res.on('close', () => this.open--);
      req.resume();
      req.on('end', () => this.answer(res, id, this.ids.filter((x) => x === id).length));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  hold(res: http.ServerResponse): void {
    this.held.push(res);
  }

  release(status: number): void {
    for (const res of this.held.splice(0)) {
      res.statusCode = status;
      res.end();
    }
  }

  async close(): Promise<void> {
    for (const res of this.held.splice(0)) res.destroy();
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

const answerAfter =
  (ms: number, status = 204) =>
  (res: http.ServerResponse) =>
    void setTimeout(() => {
      res.statusCode = status;
      res.end();
    }, ms);

async function subscribe(t: TestTenant, url: string): Promise<string> {
  const res = await api()
    .post('/api/webhooks')
    .set(t.headers())
    .send({ url, types: ['test.hook'] });
  expect(res.status).to.equal(201);
  return res.body.id;
}

const publishMany = async (t: TestTenant, n: number) => {
  for (let i = 0; i < n; i++)
    await inTransaction(NO_UNIT, (em) =>
      publishEvent(em, t.ctx, { type: 'test.hook', filialId: t.filialIds[0], aggregateType: 'test', aggregateId: i + 1, data: { i } }),
    );
};

const deliveriesOf = (t: TestTenant) =>
  dataSource.manager.find(WebhookDelivery, { where: { companyId: t.companyId }, order: { id: 'ASC' } });

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(50);
  }
}

describe('Webhook dispatch: leases, fencing, per-endpoint isolation', function () {
  this.timeout(90_000);

  it('two dispatchers (replicas) with a receiver slower than the lease: every event sent once', async () => {
    const t = await createTestTenant({ filiais: 1 });
    // Each answer takes 800 ms; 20 events through at most 2 × 2 slots take ~4 s, longer than the 3.5 s
    // lease. The timeout is generous so that a loaded machine does not turn slow answers into failures.
    const receiver = new Receiver(answerAfter(800));
    const hook = await subscribe(t, await receiver.listen());
    const options = { timeoutMs: 3000, leaseMs: 3500, perEndpoint: 2, backoffBaseMs: 60_000 };
    const a = new WebhookDispatcher(options);
    const b = new WebhookDispatcher(options);
    try {
      await publishMany(t, 20);
      a.start(40);
      b.start(40);
      await until(async () => (await deliveriesOf(t)).filter((d) => d.status === 'DELIVERED').length === 20, 50_000);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await receiver.close();
    }
    expect(receiver.ids).to.have.length(20);
    expect(new Set(receiver.ids).size).to.equal(20);
    const rows = await deliveriesOf(t);
    expect(rows.map((d) => d.attempts)).to.deep.equal(rows.map(() => 1));
    // Both replicas took part (each one's slots are bounded per endpoint).
    expect(a.stats().delivered).to.be.above(0);
    expect(b.stats().delivered).to.be.above(0);
    expect(a.stats().delivered + b.stats().delivered).to.equal(20);
    expect(receiver.maxOpen).to.be.at.most(4);
    await api().delete(`/api/webhooks/${hook}`).set(t.headers()).expect(204);
  });

  it('a timed-out attempt is retried after back-off, and the retry shows in the deliveries', async () => {
    const t = await createTestTenant({ filiais: 1 });
    const receiver = new Receiver((res, _id, nth) => (nth === 1 ? receiver.hold(res) : answerAfter(0)(res)));
    const hook = await subscribe(t, await receiver.listen());
    const dispatcher = new WebhookDispatcher({ timeoutMs: 300, leaseMs: 800, backoffBaseMs: 100, perEndpoint: 1 });
    try {
      await publishMany(t, 1);
      dispatcher.start(40);
      await until(async () => (await deliveriesOf(t))[0]?.status === 'DELIVERED', 10_000);
    } finally {
      await dispatcher.stop();
      await receiver.close();
    }
    expect(receiver.ids).to.have.length(2); // the second send only after the first timed out
    const res = await api().get(`/api/webhooks/${hook}/deliveries`).set(t.headers());
    expect(res.body.data).to.have.length(1);
    expect(res.body.data[0]).to.include({ status: 'DELIVERED', attempts: 2, lastStatusCode: 204, lastError: null });
    await api().delete(`/api/webhooks/${hook}`).set(t.headers()).expect(204);
  });

  it("an attempt whose lease was taken over does not write its outcome over the new holder's", async () => {
    const t = await createTestTenant({ filiais: 1 });
    let first = true;
    const receiver = new Receiver((res) => {
      if (first) {
        first = false;
        receiver.hold(res);
      } else answerAfter(0)(res);
    });
    const hook = await subscribe(t, await receiver.listen());
    await publishMany(t, 1);
    // A stalls past its lease (its clock says so to the others: B runs 10 s later).
    const a = new WebhookDispatcher({ timeoutMs: 5000, leaseMs: 6000, perEndpoint: 1 });
    const b = new WebhookDispatcher({ timeoutMs: 5000, leaseMs: 6000, perEndpoint: 1, now: () => new Date(Date.now() + 10_000) });
    try {
      const aRun = a.runOnce();
      await until(async () => receiver.ids.length === 1, 5000);
      const [held] = await deliveriesOf(t);
      expect(held).to.include({ status: 'PENDING', attempts: 1 });
      expect(held.lockedUntil).to.not.equal(null);

      expect((await b.runOnce()).delivered).to.equal(1);
      const [taken] = await deliveriesOf(t);
      expect(taken).to.include({ status: 'DELIVERED', attempts: 2, lastError: null });

      // A's late answer (a failure) must not turn the delivery back to PENDING.
      receiver.release(500);
      await aRun;
      expect(a.stats()).to.include({ lost: 1, delivered: 0, retry: 0 });
      const [after] = await deliveriesOf(t);
      expect(after).to.include({ status: 'DELIVERED', attempts: 2, lastStatusCode: 204 });
    } finally {
      await receiver.close();
    }
    await api().delete(`/api/webhooks/${hook}`).set(t.headers()).expect(204);
  });

  it("a dead endpoint holds only its own slots: another tenant's webhooks go through meanwhile", async () => {
    const slow = await createTestTenant({ filiais: 1 });
    const fast = await createTestTenant({ filiais: 1 });
    const dead = new Receiver((res) => dead.hold(res));
    const alive = new Receiver(answerAfter(0));
    const deadHook = await subscribe(slow, await dead.listen());
    const aliveHook = await subscribe(fast, await alive.listen());
    const dispatcher = new WebhookDispatcher({ timeoutMs: 8000, leaseMs: 9000, perEndpoint: 2, backoffBaseMs: 60_000 });
    try {
      await publishMany(slow, 6);
      await publishMany(fast, 6);
      const started = Date.now();
      dispatcher.start(40);
      await until(async () => (await deliveriesOf(fast)).filter((d) => d.status === 'DELIVERED').length === 6, 6000);
      // Done well before the dead endpoint's first attempts could time out, which still hold exactly their 2 slots.
      expect(Date.now() - started).to.be.below(8000);
      expect(dead.open).to.equal(2);
      expect(dead.maxOpen).to.equal(2);
      expect((await deliveriesOf(slow)).filter((d) => d.status === 'DELIVERED')).to.have.length(0);
    } finally {
      await dead.close(); // the held attempts fail now (connection reset) instead of timing out
      await dispatcher.stop();
      await alive.close();
    }
    expect(new Set(alive.ids).size).to.equal(6);
    await api().delete(`/api/webhooks/${deadHook}`).set(slow.headers()).expect(204);
    await api().delete(`/api/webhooks/${aliveHook}`).set(fast.headers()).expect(204);
  });
});
