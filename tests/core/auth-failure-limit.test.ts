import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/app';
import { createTestTenant, TestTenant } from '../support/tenant';

/**
 * Opens a streaming GET and drops the connection (a POS closing its tab): a stream once its headers
 * arrived, a long poll (which answers only at its end) after `dropAfterMs`.
 */
function openAndDrop(port: number, path: string, headers: Record<string, string>, dropAfterMs?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    if (dropAfterMs !== undefined) setTimeout(() => (req.destroy(), resolve(0)), dropAfterMs);
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' ? undefined : reject(err)));
  });
}

function get(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

describe('Failed-authentication limit per address counts only 401s sent (SPEC §0)', () => {
  let t: TestTenant;
  let server: http.Server;
  let port: number;
  before(async () => {
    t = await createTestTenant();
    // The production defaults of the address limits (RATE_LIMIT_AUTH_FAILURES_MAX 60).
    const app = createApp({ addressRateLimit: { windowMs: 60_000, max: 6000, authFailuresMax: 60 } });
    server = http.createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('200 concurrent valid requests and 100 dropped streams and long polls from one address: no 429', async () => {
    const headers = t.headers() as Record<string, string>;
    const streams = Array.from({ length: 50 }, () => openAndDrop(port, '/api/events/stream', headers));
    const polls = Array.from({ length: 50 }, () => openAndDrop(port, '/api/events?wait=30', headers, 300));
    const valid = Array.from({ length: 200 }, () => get(port, '/api/me', headers));
    const statuses = await Promise.all([...valid, ...streams]);
    expect(statuses.filter((s) => s === 429)).to.have.length(0);
    expect(statuses.every((s) => s === 200)).to.equal(true);
    await Promise.all(polls);
    // Still nothing counted: the address can make 200 more.
    const again = await Promise.all(Array.from({ length: 200 }, () => get(port, '/api/me', headers)));
    expect(again.every((s) => s === 200)).to.equal(true);
  });

  it('a failure is counted when the 401 is sent; the 61st failure gets 429, valid calls of another address do not', async () => {
    const bad = { Authorization: 'Bearer not-a-token', 'x-company-id': t.companyHash, 'X-Forwarded-For': '198.51.100.7' };
    const first = await Promise.all(Array.from({ length: 60 }, () => get(port, '/api/me', bad)));
    expect(first.every((s) => s === 401)).to.equal(true);
    expect(await get(port, '/api/me', bad)).to.equal(429);
    expect(await get(port, '/api/me', t.headers() as Record<string, string>)).to.equal(200);
  });

  it('a till network behind one NAT (issue 43): 60 failed logins lock the address out for bad tokens only; valid tokens from it keep working', async () => {
    const nat = '203.0.113.20';
    const bad = { Authorization: 'Bearer not-a-token', 'x-company-id': t.companyHash, 'X-Forwarded-For': nat };
    const tampered = { ...bad, Authorization: `Bearer ${t.token.slice(0, -4)}AAAA` };
    expect((await Promise.all(Array.from({ length: 60 }, () => get(port, '/api/me', bad)))).every((s) => s === 401)).to.equal(true);
    expect(await get(port, '/api/me', bad)).to.equal(429);
    expect(await get(port, '/api/me', tampered)).to.equal(429);
    expect(await get(port, '/api/me', { 'x-company-id': t.companyHash, 'X-Forwarded-For': nat })).to.equal(429);
    // Every till's valid token, fresh or already seen, is served; concurrent ones too.
    const tills = { ...(t.headers() as Record<string, string>), 'X-Forwarded-For': nat };
    const other = { ...(t.headersWith({ filiais: [t.filialHashes[0]] }) as Record<string, string>), 'X-Forwarded-For': nat };
    const statuses = await Promise.all([...Array.from({ length: 20 }, () => get(port, '/api/me', tills)), get(port, '/api/me', other)]);
    expect(statuses.every((s) => s === 200)).to.equal(true);
    // And the bad ones are still refused.
    expect(await get(port, '/api/me', bad)).to.equal(429);
  });
});
