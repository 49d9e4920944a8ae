import { expect } from 'chai';
import supertest from 'supertest';
import { signToken } from '../../src/core/auth/jwt';
import { seedDemoTenant } from '../../src/demo/demo-seed';
import { app } from '../support/api';

/*
 * Issue 44: Swagger UI's "Try it out" works with what the document shows. With the demo tenant seeded,
 * the served document's ids are the demo's, and every Idempotency-Key example is fresh (per operation,
 * per document served), so trying a route twice is two requests.
 */
const NOT_CONFIGURED = ['CERTIFICATE_NOT_FOUND', 'SMTP_SETTINGS_NOT_FOUND', 'LOGO_NOT_FOUND'];
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
    operatorHeaders = { Authorization: `Bearer ${signToken({ sub: 'swagger-operator', companyId: '*', filiais: ['*'], scope: 'operator' }, '1h')}` };
    doc = (await supertest(app).get('/api/openapi.json')).body;
  });

  const operations = (): Op[] => Object.entries(doc.paths).flatMap(([path, ops]: [string, any]) => Object.entries(ops).map(([method, op]) => ({ method, path, op })));

  it('every Idempotency-Key example is fresh: per operation and per document served; Swagger UI reads the served document', async () => {
    const keys = (d: any) =>
      Object.values(d.paths).flatMap((ops: any) => Object.values(ops).flatMap((op: any) => (op.parameters ?? []).filter((p: any) => p.name === 'Idempotency-Key').map((p: any) => p.example)));
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
    const productPath = Object.keys(doc.paths).find((p) => /^\/api\/catalog\/products?\/\{id\}$/.test(p) || /product.*\{productId\}/.test(p));
    expect(productPath, 'a product route').to.be.a('string');
    const productParam = Object.values(doc.paths[productPath!])
      .flatMap((op: any) => op.parameters ?? [])
      .find((p: any) => p.in === 'path');
    expect(summary.productIds).to.include(productParam.schema.example);
  });

  it('every GET route whose path holds only demo ids answers 2xx with its examples, twice in a row', async () => {
    const resolvable = new Set(['filial', 'product', 'customer', 'seller', 'supplier', 'company']);
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
        if (res.status >= 300) failures.push(`round ${round} GET ${url} (${path}) → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    expect(tried).to.be.greaterThan(20);
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });
});
