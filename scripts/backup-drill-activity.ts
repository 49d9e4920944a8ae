// The backup drill's day of work on the demo tenant, through the API: a purchase invoice booked
// (stock in, two payables), one payable paid in part, and a quick sale (stock out). What a restore
// must give back besides the demo's own rows. Prints the database's fingerprint (db-fingerprint.ts) after.
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app';
import { signToken } from '../src/core/auth/jwt';
import { seedDemoTenant } from '../src/demo/demo-seed';
import { fail, withDatabase } from './cli';
import { fingerprint } from './db-fingerprint';

withDatabase(async () => {
  const { summary } = await seedDemoTenant();
  const server = createApp().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  const token = signToken({ sub: 'backup-drill', companyId: summary.companyId, filiais: ['*'], scope: '*' }, '10m');
  const headers = {
    Authorization: `Bearer ${token}`,
    'x-company-id': summary.companyId,
    'x-filial-id': summary.filialIds[0],
    'Content-Type': 'application/json',
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const json = (await res.json().catch(() => null)) as any;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  try {
    const doc = await call('POST', '/entry-document', {
      number: String(Date.now() % 1_000_000_000),
      series: '1',
      issueDate: '2026-03-02',
      entryDate: '2026-03-03',
      supplier: { document: '11222333000181', name: 'Distribuidora Exemplo Ltda', uf: 'SP' },
      items: [{ description: 'Café Torrado e Moído 500g', unit: 'PCT', quantity: 24, unitPrice: 12.4, productId: summary.productIds[4] }],
      installments: [
        { dueDate: '2030-01-10', amount: 148.8 },
        { dueDate: '2030-02-10', amount: 148.8 },
      ],
    });
    await call('POST', `/entry-document/confirm/${doc.id}`);
    const payables = await call('GET', `/entry-document/contas-pagar/documento/${doc.id}`);
    const methods = await call('GET', '/catalog/payment-methods');
    await call('POST', `/entry-document/contas-pagar/pay/${payables.data[0].id}`, {
      amount: 100,
      paymentDate: '2026-03-10',
      method: methods.data[0].code,
    });
    await call('POST', '/sales-order', {
      flowMode: 'QUICK_SALE',
      items: [{ productId: summary.productIds[0], quantity: 6 }],
      payments: [{ method: methods.data[0].code, amount: 100 }],
    });
  } finally {
    server.close();
  }
  console.log(await fingerprint());
}).catch((err) => fail(err.message));
