import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import supertest from 'supertest';
import { signToken } from '../../src/core/auth/jwt';
import { cnpjWithCheckDigits } from '../../src/core/br-documents';
import { dataSource } from '../../src/core/db/data-source';
import { DemoDocumentsResult, seedDemoDocuments } from '../../src/demo/demo-documents';
import { forgetDemoExampleIds } from '../../src/demo/demo-ids';
import { DEMO_COMPANY_CNPJ, seedDemoTenant } from '../../src/demo/demo-seed';
import { useLocalAuthority } from '../../src/dev/sefaz-simulator/local-authority';
import { useTefSimulator } from '../../src/dev/tef-simulator';
import { authority } from '../sefaz/support';
import { WebhookSubscription } from '../../src/modules/events/entities/webhook-subscription.entity';
import { Company } from '../../src/modules/tenancy/entities/company.entity';
import { app } from '../support/api';
import { contractViolation } from '../support/contract';

/*
 * Issue 44: Swagger UI's "Try it out" works with what the document shows. With the demo tenant seeded,
 * the served document's ids are the demo's, and every Idempotency-Key example is fresh (per operation,
 * per document served), so trying a route twice is two requests.
 */
const NOT_CONFIGURED = ['CERTIFICATE_NOT_FOUND', 'SMTP_SETTINGS_NOT_FOUND', 'LOGO_NOT_FOUND', 'PIX_PSP_NOT_CONFIGURED'];
type Op = { method: string; path: string; op: any };

describe('OpenAPI "Try it out" against the demo tenant', function () {
  this.timeout(300_000);
  let summary: Awaited<ReturnType<typeof seedDemoTenant>>['summary'];
  let doc: any;
  let headers: Record<string, string>;
  let operatorHeaders: Record<string, string>;

  before(async () => {
    ({ summary } = await seedDemoTenant());
    const token = signToken({ sub: 'swagger-user', companyId: summary.companyId, filiais: ['*'], scope: '*' }, '1h');
    headers = { Authorization: `Bearer ${token}`, 'x-company-id': summary.companyId, 'x-filial-id': summary.filialIds[0] };
    operatorHeaders = {
      Authorization: `Bearer ${signToken({ sub: 'swagger-operator', companyId: '*', filiais: ['*'], scope: 'operator' }, '1h')}`,
    };
    doc = (await supertest(app).get('/api/openapi.json')).body;
  });

  const operations = (): Op[] =>
    Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));

  it('every Idempotency-Key example is fresh: per operation and per document served; Swagger UI reads the served document', async () => {
    const keys = (d: any) =>
      Object.values(d.paths).flatMap((ops: any) =>
        Object.values(ops).flatMap((op: any) =>
          (op.parameters ?? []).filter((p: any) => p.name === 'Idempotency-Key').map((p: any) => p.example),
        ),
      );
    const first = keys(doc);
    const second = keys((await supertest(app).get('/api/openapi.json')).body);
    expect(first.length).to.be.greaterThan(20);
    expect(new Set(first).size).to.equal(first.length);
    expect(first.filter((k) => second.includes(k))).to.deep.equal([]);
    expect(first.every((k: string) => /^try-[0-9a-f-]{36}$/.test(k))).to.equal(true);
    const init = await supertest(app).get('/api/docs/swagger-ui-init.js');
    expect(init.text).to.contain('"url": "/api/openapi.json"').and.contain('Idempotency-Key');
  });

  it("path and body ids of the examples are the demo tenant's", () => {
    const param = (path: string, method: string, name: string) => doc.paths[path][method].parameters.find((p: any) => p.name === name);
    expect(param('/api/nfce/list/{filialId}', 'get', 'filialId').schema.example).to.equal(summary.filialIds[0]);
    const productPath = Object.keys(doc.paths).find(
      (p) => /^\/api\/catalog\/products?\/\{id\}$/.test(p) || /product.*\{productId\}/.test(p),
    );
    expect(productPath, 'a product route').to.be.a('string');
    const productParam = Object.values(doc.paths[productPath!])
      .flatMap((op: any) => op.parameters ?? [])
      .find((p: any) => p.in === 'path');
    expect(summary.productIds).to.include(productParam.schema.example);
  });

  it('every GET route whose path holds only demo ids answers 2xx with its examples, twice in a row', async () => {
    const resolvable = new Set(['filial', 'product', 'customer', 'seller', 'supplier', 'company', 'tax-group']);
    const failures: string[] = [];
    let tried = 0;
    for (const { method, path, op } of operations()) {
      if (method !== 'get' || op.security?.length === 0) continue;
      // A server-sent-events stream never ends.
      if (Object.values(op.responses ?? {}).some((r: any) => r.content?.['text/event-stream'])) continue;
      const params = op.parameters ?? [];
      const pathParams = params.filter((p: any) => p.in === 'path');
      if (!pathParams.every((p: any) => resolvable.has(p.schema?.['x-hashid']))) continue;
      if (params.some((p: any) => p.in === 'query' && p.required)) continue;
      const url = pathParams.reduce((u: string, p: any) => u.replace(`{${p.name}}`, p.schema.example), path);
      tried++;
      for (const round of [1, 2]) {
        // Operator routes are tried with an operator token (no company), as their document says.
        const res = await supertest(app)
          .get(url)
          .set(op['x-operator'] ? operatorHeaders : headers)
          .timeout(20_000);
        // Settings a fresh demo does not hold until somebody saves them answer their documented 404.
        if (res.status === 404 && NOT_CONFIGURED.includes(res.body.code)) continue;
        if (res.status >= 300)
          failures.push(`round ${round} GET ${url} (${path}) → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(tried).to.be.greaterThan(20);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});

/**
 * The demo tenant renamed out of the way: the next seed makes a fresh one (other companies are untouched).
 * Its webhook subscriptions (the seed's and the examples', to an example host) stop: a dispatcher run of a
 * later file (tests/sdk/events.test.ts) must not spend its time on them.
 */
async function retireDemo(): Promise<void> {
  const demo = await dataSource.manager.findOneBy(Company, { cnpj: DEMO_COMPANY_CNPJ });
  if (demo) await dataSource.manager.update(WebhookSubscription, { companyId: demo.id }, { active: false });
  const retired = cnpjWithCheckDigits(String(100_000_000_000 + Math.floor(Math.random() * 899_999_999_999)).slice(0, 12));
  await dataSource.manager.update(Company, { cnpj: DEMO_COMPANY_CNPJ }, { cnpj: retired });
  forgetDemoExampleIds();
}

/** A remote party of the user's own settings a demo cannot reach (the example SMTP relay). */
const REMOTE_UNREACHABLE = ['EMAIL_NOT_SENT'];

/** The types whose example ids are the demo's own rows (src/demo/demo-ids.ts), besides the documents the seed made. */
const DEMO_TYPES = new Set(['company', 'filial', 'product', 'customer', 'seller', 'supplier', 'tax-group', 'fiscal-rule']);
/** What a 404 of one of the demo's own rows says: never accepted (the example id is the demo's). */
const DEMO_NOT_FOUND = [
  'COMPANY_NOT_FOUND',
  'FILIAL_NOT_FOUND',
  'PRODUCT_NOT_FOUND',
  'CUSTOMER_NOT_FOUND',
  'SELLER_NOT_FOUND',
  'SUPPLIER_NOT_FOUND',
  'TAX_GROUP_NOT_FOUND',
  'FISCAL_OPERATION_RULE_NOT_FOUND',
];
/** What a 404 says when the row of an id of this type is not there (sales-order → SALES_ORDER_NOT_FOUND). */
const notFoundCode = (type: string) => `${type.toUpperCase().replace(/-/g, '_')}_NOT_FOUND`;
/** The real authority's silence, once an earlier try pointed the demo's filial at it. */
const AUTHORITY_UNREACHABLE = ['SEFAZ_UNAVAILABLE', 'SEFAZ_TIMEOUT'];
/** A documented business wait, not a rate limit: the DF-e query's second try inside the authority's interval. */
const BUSINESS_WAIT = ['SEFAZ_WAIT_REQUIRED'];

/** The hashid types a JSON schema's properties name, however deep (a body's ids). */
function hashidTypes(schema: any, doc: any, seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (schema.$ref) {
    if (seen.has(schema.$ref)) return [];
    seen.add(schema.$ref);
    return hashidTypes(doc.components.schemas[schema.$ref.split('/').pop()], doc, seen);
  }
  const own = schema['x-hashid'] ? [schema['x-hashid'] as string] : [];
  return [...own, ...Object.values(schema).flatMap((v) => (v && typeof v === 'object' ? hashidTypes(v, doc, seen) : []))];
}

/*
 * Issue 44, "Done when": every request example of the document is accepted by a fresh demo server in
 * Try-it-out order, twice in a row. The operations are taken as Swagger UI lists them (its tags in the
 * document's order, each tag's operations in document order) and each is executed twice with what
 * the document shows: path ids and required query parameters from their examples, the body example,
 * the Idempotency-Key example (the second try from the document served again, as a reloaded page
 * has). "Accepted" (docs/decisions/first-note-setup.md): the status is documented for the operation
 * and its body holds to the document; never 400, 401, 403, 413, 415, 429 or 5xx; a 404 only for a
 * setting a fresh demo does not hold or an id of a type the demo does not seed; a 409 or 422 only
 * with a code the operation documents (a state the first try made, a rule the demo's data meets).
 * The demo is fresh: the one earlier files used is retired first, and this one after, so the writes
 * below touch nothing another test reads. Its filiais are attached to the local simulator (the route
 * POST /settings/filial/:filialId/simulator) and the document seed runs on it as `npm start` runs it
 * (src/demo/demo-documents.ts), so a 404 on an id of a type the seed made fails the test, unless an
 * earlier operation of the run deleted that row (Swagger order: DELETE /webhooks/{id} before its deliveries).
 */
describe('OpenAPI "Try it out": every operation, in Swagger UI order, twice, against a fresh demo', function () {
  this.timeout(600_000);
  let docs: any[];
  let headers: Record<string, string>;
  let operatorHeaders: Record<string, string>;
  let seeded: DemoDocumentsResult;
  let server: Server;

  before(async () => {
    await retireDemo();
    const { summary } = await seedDemoTenant();
    const token = signToken({ sub: 'swagger-user', companyId: summary.companyId, filiais: ['*'], scope: '*' }, '1h');
    headers = { Authorization: `Bearer ${token}`, 'x-company-id': summary.companyId, 'x-filial-id': summary.filialIds[0] };
    operatorHeaders = {
      Authorization: `Bearer ${signToken({ sub: 'swagger-operator', companyId: '*', filiais: ['*'], scope: 'operator' }, '1h')}`,
    };
    // As `npm start` on the embedded default: the local authority (and the TEF simulator) running, the demo's filiais attached.
    const { sim, endpoints } = await authority();
    useLocalAuthority(sim, endpoints);
    useTefSimulator();
    for (const filialId of summary.filialIds) {
      const res = await supertest(app)
        .post(`/api/settings/filial/${filialId}/simulator`)
        .set({ ...headers, 'x-filial-id': filialId })
        .send({ certificate: 'ISSUE' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    seeded = (await seedDemoDocuments({
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
      feedAuthority: (xml) => sim.authority.feed(xml),
    }))!;
    expect(seeded.failed, JSON.stringify(seeded.failed)).to.deep.equal([]);
    docs = [(await supertest(app).get('/api/openapi.json')).body, (await supertest(app).get('/api/openapi.json')).body];
  });
  after(async () => {
    await retireDemo();
    useLocalAuthority(null);
    useTefSimulator(null);
    await new Promise((resolve) => server?.close(resolve));
  });

  it('the seed made its documents once: a second run finds them and makes none', async () => {
    expect(seeded.made).to.include.members([
      'sales-order',
      'fulfillment',
      'invoice',
      'nfce',
      'receivable',
      'entry-document',
      'payable',
      'boleto',
      'webhook',
      'cash-session',
    ]);
    const again = await seedDemoDocuments({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api` });
    expect(again!.made).to.deep.equal([]);
    expect(again!.failed).to.deep.equal([]);
    expect(again!.present).to.have.members(seeded.made);
  });

  /** Swagger UI's order: the document's tags, each with its operations in document order. */
  const inSwaggerOrder = (doc: any): Op[] => {
    const all: Op[] = Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) =>
      Object.entries(ops).map(([method, op]) => ({ method, path, op })),
    );
    const tags: string[] = [...(doc.tags ?? []).map((t: any) => t.name), ...all.map((o) => o.op.tags?.[0] ?? 'default')].filter(
      (t, i, l) => l.indexOf(t) === i,
    );
    return tags.flatMap((tag) => all.filter((o) => (o.op.tags?.[0] ?? 'default') === tag));
  };

  it('every operation answers what its document says, with its own examples', async () => {
    const failures: string[] = [];
    const skipped: string[] = [];
    const unseeded: string[] = [];
    let tried = 0;
    const second = new Map(inSwaggerOrder(docs[1]).map((o) => [`${o.method} ${o.path}`, o.op]));
    const seededTypes = new Set([...DEMO_TYPES, ...seeded.made]);
    // Types whose example row an earlier operation of the run deleted (a 2xx DELETE on its id).
    const deleted = new Set<string>();
    const seededMisses: string[] = [];
    // Whether an earlier try moved the demo's filial off the local simulator (detached it, or switched it to produção).
    let authorityMoved = false;
    for (const { method, path, op } of inSwaggerOrder(docs[0])) {
      const name = `${method.toUpperCase()} ${path}`;
      // Not tried by a browser's Try-it-out: an event stream never ends; a file upload has no example to send.
      if (Object.values(op.responses ?? {}).some((r: any) => r.content?.['text/event-stream'])) {
        skipped.push(`${name}: server-sent events (the stream never ends)`);
        continue;
      }
      // A PSP's callback is not a browser's: it carries the account's webhook secret, which the document cannot show.
      if (path.startsWith('/api/webhooks/pix/')) {
        skipped.push(`${name}: a PSP's callback (authenticated by the account's webhook secret)`);
        continue;
      }
      const content = op.requestBody?.content ?? {};
      if (op.requestBody && !content['application/json']) {
        skipped.push(`${name}: a file upload (${Object.keys(content).join(', ')})`);
        continue;
      }
      tried++;
      for (const [round, operation] of [
        [1, op],
        [2, second.get(`${method} ${path}`)],
      ] as const) {
        const params: any[] = operation.parameters ?? [];
        const missing = params.filter((p) => (p.in === 'path' || p.required) && (p.example ?? p.schema?.example) === undefined);
        if (missing.length) {
          failures.push(`${name}: no example for ${missing.map((p) => p.name).join(', ')}`);
          break;
        }
        const url = params
          .filter((p) => p.in === 'path')
          .reduce((u: string, p: any) => u.replace(`{${p.name}}`, encodeURIComponent(String(p.example ?? p.schema.example))), path);
        const query = Object.fromEntries(
          params.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, p.example ?? p.schema.example]),
        );
        const agent = supertest(app);
        let req = agent[method as 'get'](url)
          .query(query)
          .set(op.security?.length === 0 ? {} : op['x-operator'] ? operatorHeaders : headers)
          .timeout(30_000);
        const key = params.find((p) => p.name === 'Idempotency-Key');
        if (key) req = req.set('Idempotency-Key', key.example);
        const body = content['application/json']?.example;
        const res = await (body !== undefined ? req.send(body) : req);
        const where = `round ${round} ${name} → ${res.status} ${res.body?.code ?? ''}`;
        const violation = contractViolation(method, url, res as never);
        if (violation) {
          failures.push(`${where}: ${violation}`);
          continue;
        }
        if (res.status < 400) {
          if (method === 'delete')
            for (const p of params.filter((x) => x.in === 'path')) if (p.schema?.['x-hashid']) deleted.add(p.schema['x-hashid']);
          if (/^\/api\/settings\/filial\/\{filialId\}(\/simulator)?$/.test(path) && (method === 'delete' || method === 'patch'))
            authorityMoved = true;
          continue;
        }
        const codes: string[] =
          operation.responses[String(res.status)]?.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
        const documented = codes.includes(res.body.code);
        const ids = [
          ...params.filter((p) => p.in === 'path').map((p) => p.schema?.['x-hashid']),
          ...hashidTypes(content['application/json']?.schema, docs[0]),
        ].filter(Boolean);
        const foreignId = ids.some((t) => !seededTypes.has(t));
        // A 404 names what it did not find: a setting or a document a fresh demo does not hold yet, never one of its seeded rows.
        if (res.status === 404 && documented && !DEMO_NOT_FOUND.includes(res.body.code)) {
          // The row of an id the demo holds (its own or the seed's document, not deleted earlier in the run) not found: a miss.
          const missedType = ids.find((t) => seededTypes.has(t) && !deleted.has(t) && notFoundCode(t) === res.body.code);
          if (round === 1 && missedType) seededMisses.push(`${where}: ${JSON.stringify(res.body).slice(0, 400)}`);
          else if (round === 1 && !NOT_CONFIGURED.includes(res.body.code))
            unseeded.push(`${name} (${res.body.code}${foreignId ? '' : ids.length ? ', a state the demo is not in' : ', no id'})`);
          continue;
        }
        if (res.status === 429 && documented && BUSINESS_WAIT.includes(res.body.code)) continue;
        // Once Try-it-out detached the simulator (or chose produção), the filial's authority is the real one, which no test reaches.
        if ((res.status === 503 || res.status === 504) && documented && authorityMoved && AUTHORITY_UNREACHABLE.includes(res.body.code))
          continue;
        // Mail goes to the SMTP relay of the demo's saved settings, an example host no demo reaches: the documented refusal is the answer.
        if (res.status === 502 && documented && REMOTE_UNREACHABLE.includes(res.body.code)) continue;
        if (
          (res.status === 409 || res.status === 422) &&
          documented &&
          !['IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_PROGRESS', 'CONCURRENT_UPDATE'].includes(res.body.code)
        )
          continue;
        failures.push(`${where}: ${JSON.stringify(res.body).slice(0, 300)}`);
      }
    }
    expect(tried).to.be.greaterThan(100);
    expect(seededMisses, `404 on ids the demo holds:\n${seededMisses.join('\n')}`).to.deep.equal([]);
    expect(failures, `${failures.length} failures\n${failures.join('\n')}\n(skipped: ${skipped.join('; ')})`).to.deep.equal([]);
    // The skips are the three kinds above, each named; ids the demo does not seed answer their documented 404.
    expect(skipped.every((s) => /server-sent events|file upload|PSP's callback/.test(s))).to.equal(true);
    if (process.env.TRY_IT_OUT_REPORT) console.log(`tried ${tried}; 404 on what the demo does not hold:\n${unseeded.join('\n')}`);
    // Issue 44: 132 of 258 before the document seed; what is left is named in docs/decisions/first-note-setup.md.
    expect(unseeded.length).to.be.lessThan(25);
  });
});
