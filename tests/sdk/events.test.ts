import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../src/app';
import { inTransaction, NO_UNIT } from '../../src/core/db/transaction';
import { publishEvent } from '../../src/core/outbox/outbox.service';
import { WebhookDispatcher } from '../../src/modules/events/webhook-dispatcher';
import { createClient, verifyWebhookSignature } from '../../sdk/src';
import { createTestTenant, TestTenant } from '../support/tenant';

describe('SDK: events and webhooks against the real server', () => {
  let t: TestTenant;
  let server: Server;
  let baseUrl: string;
  before(async () => {
    t = await createTestTenant({ filiais: 1 });
    server = createApp().listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise((r) => server.close(r)));

  const publish = (type: string, n: number) =>
    inTransaction(NO_UNIT, (em) =>
      publishEvent(em, t.ctx, { type, filialId: t.filialIds[0], aggregateType: 'test', aggregateId: n, data: { n } }),
    );

  it('subscribe() yields every event once, in order, as it happens (long-poll)', async () => {
    const client = createClient({ baseUrl, token: t.token, companyId: t.companyHash, filialId: t.filialHashes[0] });
    await publish('sdk.first', 1);
    const controller = new AbortController();
    const seen: number[] = [];
    setTimeout(() => void publish('sdk.second', 2).then(() => publish('sdk.third', 3)), 300);
    for await (const event of client.events.subscribe({ after: '0', wait: 2 }, { signal: controller.signal })) {
      seen.push((event.data as { n: number }).n);
      if (seen.length === 3) {
        controller.abort();
        break;
      }
    }
    expect(seen).to.deep.equal([1, 2, 3]);
    const onlyThird = await client.events.list({ after: '0', types: ['sdk.third'] });
    expect(onlyThird.data.map((e) => e.type)).to.deep.equal(['sdk.third']);
    // Without a cursor it starts from now.
    const live: string[] = [];
    const liveController = new AbortController();
    setTimeout(() => void publish('sdk.fourth', 4), 300);
    for await (const event of client.events.subscribe({ wait: 2 }, { signal: liveController.signal })) {
      live.push(event.type);
      liveController.abort();
      break;
    }
    expect(live).to.deep.equal(['sdk.fourth']);
  });

  it('verifyWebhookSignature() accepts what the service signs and refuses tampering', async () => {
    const client = createClient({ baseUrl, token: t.token, companyId: t.companyHash });
    const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    try {
      const hook = await client.events.createWebhook({
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/in`,
        types: ['sdk.hook'],
      });
      expect((await client.events.listWebhooks()).data.map((w) => w.id)).to.include(hook.id);
      await publish('sdk.hook', 7);
      // A short attempt: subscriptions of other files' tenants (example hosts nobody answers) are in the same run.
      await new WebhookDispatcher({ timeoutMs: 2000 }).runOnce();
      expect(received).to.have.length(1);
      const [{ headers, body }] = received;
      const signed = { body, timestamp: String(headers['webhook-timestamp']), signature: String(headers['webhook-signature']) };
      expect(await verifyWebhookSignature(hook.secret, signed)).to.equal(true);
      expect(await verifyWebhookSignature(hook.secret, { ...signed, body: body.replace('7', '8') })).to.equal(false);
      expect(await verifyWebhookSignature('whsec_other', signed)).to.equal(false);
      const deliveries = await client.events.deliveries(hook.id);
      expect(deliveries.data[0]).to.include({ status: 'DELIVERED', attempts: 1 });
      await client.events.deleteWebhook(hook.id);
      expect((await client.events.listWebhooks()).data.map((w) => w.id)).to.not.include(hook.id);
    } finally {
      await new Promise((r) => receiver.close(r));
    }
  });
});
