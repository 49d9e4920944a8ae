import { expect } from 'chai';
import { dataSource } from '../../src/core/db/data-source';
import { decodeId } from '../../src/core/hashids';
import { seedDemoTenant } from '../../src/demo/demo-seed';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { computeFiscalDocument } from '../../src/modules/fiscal';

/* The demo tenant bills out of the box (issue 29): an NF-e to a contributor and an NFC-e at the counter. */
describe('Demo tenant: fiscal data', () => {
  it('computes an NF-e for the bakery (CSOSN 101 / 5405 CST 60 drinks) and an NFC-e for an unidentified consumer', async () => {
    const { summary } = await seedDemoTenant();
    const companyId = decodeId('company', summary.companyId);
    const ctx = { companyId, actor: 'test' };
    const filialId = decodeId('filial', summary.filialIds[0]);
    const bakery = await dataSource.manager.findOneByOrFail(Customer, { companyId, name: 'Padaria Pão Quente Ltda' });
    const [beer, , rice] = summary.productIds.map((h) => decodeId('product', h));
    const nfe = await computeFiscalDocument(ctx, {
      filialId,
      customerId: bakery.id,
      operation: 'SALE',
      model: 55,
      date: '2026-03-02',
      items: [
        { productId: beer, quantity: 24, unitPrice: '4.99' },
        { productId: rice, quantity: 2, unitPrice: '27.90' },
      ],
    });
    expect(nfe.items.map((i) => [i.cfop, i.icms.csosn])).to.deep.equal([
      ['5405', '500'],
      ['5102', '101'],
    ]);
    expect(nfe.issuer.crt).to.equal(1);
    const nfce = await computeFiscalDocument(ctx, {
      filialId,
      customerId: null,
      operation: 'SALE',
      model: 65,
      date: '2026-03-02',
      items: [{ productId: rice, quantity: 1, unitPrice: '27.90' }],
    });
    expect([nfce.destination, nfce.items[0].icms.csosn, nfce.totals.vNF.toFixed(2)]).to.deep.equal(['INTERNAL', '102', '27.90']);
  });
});
