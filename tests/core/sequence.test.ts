import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { nextSequenceValue } from '../../src/core/sequence/sequence.service';
import { createTestTenant } from '../support/tenant';

describe('Sequences', () => {
  it('30 parallel calls get 30 distinct consecutive values, per company', async () => {
    const a = await createTestTenant({ filiais: 1 });
    const b = await createTestTenant({ filiais: 1 });
    const values = await Promise.all(Array.from({ length: 30 }, () => nextSequenceValue(dataSource.manager, a.companyId, 'test-seq')));
    expect([...values].sort((x, y) => x - y)).to.deep.equal(Array.from({ length: 30 }, (_v, i) => i + 1));
    expect(await nextSequenceValue(dataSource.manager, b.companyId, 'test-seq')).to.equal(1);
  });
});
