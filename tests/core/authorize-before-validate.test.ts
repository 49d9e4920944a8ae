import { expect } from 'chai';
import { allRoutes } from '../../src/modules';
import { api } from '../support/api';
import { createTestTenant, TestTenant } from '../support/tenant';

/*
 * Authorization before validation (SPEC §0), over every authenticated route, present and future: a
 * caller not granted the filial it names (x-filial-id, or a :filialId of the path) gets 403 whatever
 * the body — a body of the wrong type, broken JSON or fields the route refuses.
 */
describe('Every route with a filial: 403 for a filial not granted, before content type and validation', () => {
  let t: TestTenant;
  let other: TestTenant;
  // Operator routes name no filial and take no tenant's token at all (403 OPERATOR_TOKEN_REQUIRED first: tests/tenancy/first-note.test.ts).
  const routes = allRoutes().filter((r) => !r.public && !r.operator);
  const bodies: { name: string; type: string; data: string }[] = [
    { name: 'a body of the wrong type', type: 'text/plain', data: 'not json' },
    { name: 'broken JSON', type: 'application/json', data: '{"quantity": ' },
    { name: 'fields the route refuses', type: 'application/json', data: '{"noSuchField": -1}' },
  ];
  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
  });

  const url = (path: string, filial: string) => '/api' + path.replace(/:filialId\b/g, filial).replace(/:(\w+)/g, 'Zz9Zz9Zz');

  it(`x-filial-id of another company (token of every filial of its own): ${routes.length} routes`, async () => {
    const wrong: string[] = [];
    for (const r of routes) {
      for (const body of r.method === 'get' || r.method === 'delete' ? [bodies[2]] : bodies) {
        const agent = api();
        const req = agent[r.method](url(r.path, other.filialHashes[0])).set({ ...t.headers(), 'x-filial-id': other.filialHashes[0] });
        const res =
          r.method === 'get' || r.method === 'delete'
            ? await req.query({ noSuchField: '-1' })
            : await req.set('Content-Type', body.type).send(body.data);
        if (res.status !== 403 || res.body.code !== 'FILIAL_NOT_GRANTED')
          wrong.push(`${r.method.toUpperCase()} ${r.path} (${body.name}): ${res.status} ${res.body.code}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('a path filial the token does not grant (x-filial-id granted): every route with :filialId', async () => {
    // (`/sales-order/:filialIdOrId` reads a filial or an order: its handler decides, after its own check.)
    const withPathFilial = routes.filter((r) => /:filialId(\/|$)/.test(r.path));
    expect(withPathFilial.length).to.be.greaterThan(0);
    const only0 = t.headersWith({ filiais: [t.filialHashes[0]] }, 0);
    const wrong: string[] = [];
    for (const r of withPathFilial) {
      for (const body of r.method === 'get' || r.method === 'delete' ? [bodies[2]] : bodies) {
        const req = api()[r.method](url(r.path, t.filialHashes[1])).set(only0);
        const res =
          r.method === 'get' || r.method === 'delete'
            ? await req.query({ noSuchField: '-1' })
            : await req.set('Content-Type', body.type).send(body.data);
        if (res.status !== 403 || res.body.code !== 'FILIAL_NOT_GRANTED')
          wrong.push(`${r.method.toUpperCase()} ${r.path} (${body.name}): ${res.status} ${res.body.code}`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('the routes of the report: conversion factor, filial settings, NF-e batch upload', async () => {
    const foreign = { ...t.headers(), 'x-filial-id': other.filialHashes[0] };
    expect((await api().patch('/api/entry-document/product-map/Zz9Zz9Zz/conversion-factor').set(foreign).send({ bad: 1 })).status).to.equal(
      403,
    );
    expect(
      (
        await api()
          .patch(`/api/settings/filial/${t.filialHashes[1]}`)
          .set(t.headersWith({ filiais: [t.filialHashes[0]] }))
          .send({ bad: 1 })
      ).status,
    ).to.equal(403);
    expect((await api().post('/api/entry-document/nfe/batch').set(foreign).set('Content-Type', 'text/plain').send('x')).status).to.equal(
      403,
    );
  });
});
