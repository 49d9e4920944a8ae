import { expect } from 'chai';
import { ApiConnectionError, ApiError, BusinessRuleError, createClient, NotFoundError, RateLimitError } from '../../sdk/src';
import type { TypedApiError } from '../../sdk/src';

/*
 * The SDK's transport without a server (a scripted fetch): retries of network failures on calls safe
 * to repeat (GET, or a posting call with its Idempotency-Key, sent again unchanged), none on a posting
 * call without a key; a 429 whose Retry-After exceeds the client's budget throws at once with
 * `retryAfter`; errors are the subclass of their status and narrow by `code`.
 */
type Step = Error | { status: number; body?: unknown; headers?: Record<string, string> };

function scripted(steps: Step[]) {
  const calls: { method: string; url: string; key: string | null }[] = [];
  const fetch = (async (url: URL, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    calls.push({ method: String(init.method), url: String(url), key: headers['Idempotency-Key'] ?? null });
    const step = steps.shift();
    if (!step) throw new Error('no more scripted answers');
    if (step instanceof Error) throw step;
    return new Response(step.body === undefined ? null : JSON.stringify(step.body), {
      status: step.status,
      headers: { 'content-type': 'application/json', ...(step.headers ?? {}) },
    });
  }) as unknown as typeof globalThis.fetch;
  return { calls, fetch };
}

const reset = () =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
const timeout = () => Object.assign(new Error('The operation was aborted due to timeout'), { name: 'TimeoutError' });
const problem = (status: number, code: string) => ({ type: 'about:blank', title: 'x', status, detail: 'x', code, requestId: 'r' });
const client = (fetch: typeof globalThis.fetch, over: object = {}) =>
  createClient({
    baseUrl: 'http://127.0.0.1:1',
    token: 't',
    companyId: 'c0mpany1',
    filialId: 'f1l1al01',
    fetch,
    retryBaseDelayMs: 1,
    ...over,
  });

describe('SDK transport: retries, the waiting budget, typed errors', () => {
  it('a posting call with its Idempotency-Key is retried after ECONNRESET and a timeout, with the same key', async () => {
    const { calls, fetch } = scripted([reset(), timeout(), { status: 201, body: { id: 'e1' } }]);
    const res = await client(fetch).operations.postEntryDocument({ body: { number: '1' } as never }, { idempotencyKey: 'key-1' });
    expect(res).to.deep.equal({ id: 'e1' });
    expect(calls.map((c) => [c.method, c.key])).to.deep.equal([
      ['POST', 'key-1'],
      ['POST', 'key-1'],
      ['POST', 'key-1'],
    ]);
  });

  it('a generated key is also kept across retries; a GET is retried; a posting call without a key is not', async () => {
    const keyed = scripted([reset(), { status: 200, body: {} }]);
    await client(keyed.fetch).operations.postEntryDocumentConfirmId({ id: 'abc' });
    expect(keyed.calls[0].key).to.be.a('string').and.equal(keyed.calls[1].key);

    const get = scripted([reset(), { status: 200, body: { id: 'x' } }]);
    await client(get.fetch).operations.getEntryDocumentDetailId({ id: 'x' });
    expect(get.calls).to.have.length(2);

    const unkeyed = scripted([reset(), { status: 200, body: {} }]);
    const err = await client(unkeyed.fetch)
      .request({ method: 'POST', path: '/entry-document/preview-manual', body: {} })
      .catch((e) => e);
    expect(err).to.be.instanceOf(ApiConnectionError);
    expect(err).to.include({ kind: 'network', attempts: 1 });
    expect(unkeyed.calls).to.have.length(1);
  });

  it('gives up after maxRetries with ApiConnectionError', async () => {
    const { calls, fetch } = scripted([reset(), reset(), reset()]);
    const err = await client(fetch, { maxRetries: 2 })
      .operations.getEntryDocumentDetailId({ id: 'x' })
      .catch((e) => e);
    expect(err).to.be.instanceOf(ApiConnectionError);
    expect(err.attempts).to.equal(3);
    expect(calls).to.have.length(3);
  });

  it("a 429 whose Retry-After exceeds the client's budget throws at once with retryAfter; a short one is waited", async () => {
    const long = scripted([{ status: 429, body: problem(429, 'TOO_MANY_REQUESTS'), headers: { 'retry-after': '60' } }]);
    const started = Date.now();
    const err = await client(long.fetch)
      .operations.postEntryDocumentNfeConsultar({} as never)
      .catch((e) => e);
    expect(Date.now() - started).to.be.below(1000);
    expect(err).to.be.instanceOf(RateLimitError).and.instanceOf(ApiError);
    expect(err).to.include({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfter: 60 });
    expect(long.calls).to.have.length(1);

    const short = scripted([
      { status: 429, body: problem(429, 'TOO_MANY_REQUESTS'), headers: { 'retry-after': '0' } },
      { status: 200, body: { ok: true } },
    ]);
    expect(await client(short.fetch).operations.getEntryDocumentDetailId({ id: 'x' })).to.deep.equal({ ok: true });
    // A larger budget waits where the default would not.
    const budget = scripted([
      { status: 503, body: problem(503, 'DATABASE_UNAVAILABLE'), headers: { 'retry-after': '1' } },
      { status: 200, body: {} },
    ]);
    await client(budget.fetch, { maxRetryDelayMs: 1500 }).operations.getEntryDocumentDetailId({ id: 'x' });
    expect(budget.calls).to.have.length(2);
  });

  it('errors are the subclass of their status and narrow by code', async () => {
    const { fetch } = scripted([
      { status: 404, body: problem(404, 'ENTRY_DOCUMENT_NOT_FOUND') },
      { status: 422, body: problem(422, 'INSUFFICIENT_STOCK') },
    ]);
    const api = client(fetch);
    const notFound = await api.operations.getEntryDocumentDetailId({ id: 'x' }).catch((e) => e);
    expect(notFound).to.be.instanceOf(NotFoundError);
    expect(notFound.is('ENTRY_DOCUMENT_NOT_FOUND')).to.equal(true);
    const rule = (await api.operations.getEntryDocumentDetailId({ id: 'x' }).catch((e) => e)) as TypedApiError;
    expect(rule).to.be.instanceOf(BusinessRuleError);
    let seen = '';
    switch (rule.code) {
      case 'INSUFFICIENT_STOCK':
        seen = `${rule.code} ${rule.status}`;
        break;
      default:
        seen = 'other';
    }
    expect(seen).to.equal('INSUFFICIENT_STOCK 422');
  });
});
