import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { Product } from '../../src/modules/catalog/entities/product.entity';
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
});
