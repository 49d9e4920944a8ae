import { expect } from 'chai';
import { businessToday } from '../../src/core/business-date';
import { api } from '../support/api';
import { addStock, makeCustomer, makeProduct } from '../support/catalog';
import { expectProblem } from '../support/problem';
import { createTestTenant, TestTenant } from '../support/tenant';
import { BASE, billedOrder, receive, reverse, salesSetup } from './support';

/*
 * Issue 44: the receivables CSV names the customer (name and CPF/CNPJ) and carries the interest, fine
 * and discount received (standing receipts only, as the detail's receiptTotals).
 */
describe('Receivables CSV: customer, interest, fine and discount', () => {
  let t: TestTenant;
  let other: TestTenant;
  const today = businessToday();
  const rows = async (query: Record<string, unknown> = {}) => {
    const res = await api().get(`${BASE}/export/${t.filialHashes[0]}`).query(query).set(t.headers());
    expect(res.status, res.text).to.equal(200);
    const lines = res.text.trim().split('\r\n');
    const header = lines[0].split(',');
    // RFC 4180 cells (a name may be quoted).
    const cells = (line: string) =>
      [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)].map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"')).slice(0, header.length);
    return { header, data: lines.slice(1).map((l) => Object.fromEntries(cells(l).map((v, i) => [header[i], v]))) };
  };

  before(async () => {
    t = await createTestTenant();
    other = await createTestTenant();
    const { product } = await salesSetup(t);
    const company = await makeCustomer(t, { name: 'Padaria Pão Quente, Ltda', document: '04252011000110' });
    const person = await makeCustomer(t, { name: 'João "Jota" Pereira', document: '52998224725' });
    const p = await makeProduct(t, { name: 'Serrote', price: '50.00' as never });
    await addStock(t, 0, p.id, 10, '20.00');
    const a = await billedOrder(t, company.hash, product.hash, 1, null);
    const b = await billedOrder(t, person.hash, p.hash, 1, null);
    const first = await receive(t, a.receivables[0].id, {
      amount: 40,
      receiptDate: today,
      method: 'PIX',
      interest: '1.50',
      fine: 2,
      discount: '0.75',
    });
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const second = await receive(t, a.receivables[0].id, { amount: 10, receiptDate: today, method: 'PIX', interest: '0.20' });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    // A reversed receipt's interest is no longer received.
    const gone = await receive(t, b.receivables[0].id, { amount: 5, receiptDate: today, method: 'PIX', interest: 9, fine: 9, discount: 1 });
    expect((await reverse(t, gone.body.receipt.id, { reason: 'Pix devolvido' })).status).to.equal(200);
  });

  it('each row has the customer’s name and document, and the interest, fine and discount received', async () => {
    const { header, data } = await rows({ sort: 'dueDate' });
    expect(header).to.include.members(['customerName', 'customerDocument', 'interest', 'fine', 'discount']);
    expect(header.indexOf('customerName')).to.equal(header.indexOf('customerId') + 1);
    const byName = Object.fromEntries(data.map((r) => [r.customerName, r]));
    expect(byName['Padaria Pão Quente, Ltda']).to.deep.include({
      customerDocument: '04252011000110',
      amount: '100.00',
      receivedAmount: '50.00',
      interest: '1.70',
      fine: '2.00',
      discount: '0.75',
      openAmount: '50.00',
    });
    expect(byName['João "Jota" Pereira']).to.deep.include({
      customerDocument: '52998224725',
      amount: '50.00',
      receivedAmount: '0.00',
      interest: '0.00',
      fine: '0.00',
      discount: '0.00',
    });
  });

  it('the list’s filters still apply; another tenant’s filial is refused', async () => {
    const { data } = await rows({ status: 'OPEN' });
    expect(data.map((r) => r.customerName)).to.deep.equal(['João "Jota" Pereira']);
    expectProblem(await api().get(`${BASE}/export/${t.filialHashes[0]}`).set(other.headers()), 403);
  });
});
