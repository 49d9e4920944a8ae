import { setInvoicesConfig } from '../../src/core/config/invoices';
import { dataSource } from '../../src/core/db/data-source';
import { encodeId } from '../../src/core/hashids';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { AuthoritySimulator, SimulatorEndpoints } from '../../src/dev/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { addStock, makeCustomer, makeProduct } from '../support/catalog';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { createOrder, fulfill } from '../sales-order/support';
import { authority } from '../sefaz/support';
import { setupFiscalData } from '../support/fiscal';

/*
 * The emission tests' world: a tenant whose first filial has an A1 certificate of the local authority
 * simulator and points at it and the fiscal data of the tax engine (tests/support/fiscal.ts), a customer
 * with an address and email, products with NCM, and orders fulfilled through the sales-order routes.
 */

export interface InvoiceTenant extends TestTenant {
  cnpj: string;
  sim: AuthoritySimulator;
  endpoints: SimulatorEndpoints;
  customer: Awaited<ReturnType<typeof makeCustomer>>;
  products: Awaited<ReturnType<typeof makeProduct>>[];
}

/** A tenant ready to bill: certificate and endpoint of the simulator on filial 0, a customer with email, stocked products. */
export async function invoiceTenant(opts: { certificate?: boolean; email?: string | null } = {}): Promise<InvoiceTenant> {
  setInvoicesConfig({ timeoutMs: 4000 });
  const { sim, endpoints } = await authority();
  const t = await createTestTenant({ environment: 'HOMOLOGATION' });
  const cnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[0] })).cnpj;
  if (opts.certificate !== false) {
    const a1 = sim.issueClientCertificate(cnpj, 'MERCADO TESTE LTDA', 'senha-a1');
    await saveCertificate(t.ctx, t.filialIds[0], { pfx: a1.pfx.toString('base64'), password: a1.password });
  }
  await setFilialEndpoint(t.companyId, t.filialIds[0], {
    distUrl: endpoints.distUrl,
    eventUrl: endpoints.eventUrl,
    caPem: endpoints.caPem,
    label: 'local simulator',
  });
  const customer = await makeCustomer(t, {
    document: randomCnpj(),
    email: opts.email === undefined ? 'compras@cliente.com.br' : opts.email,
  } as never);
  const products = [
    await makeProduct(t, { ncm: '22030000', gtin: null } as never),
    await makeProduct(t, { ncm: '10063021', unit: 'PCT' } as never),
  ];
  for (const p of products) await addStock(t, 0, p.id, 10_000, '3');
  await setupFiscalData(t, {
    filiais: [0],
    products: products.map((p) => p.id),
    customers: [{ id: customer.id, document: customer.document! }],
  });
  return Object.assign(t, { cnpj, sim, endpoints, customer, products });
}

/** An order of the tenant's customer, fulfilled whole: its fulfilment's hashid. */
export async function fulfilledOrder(
  t: InvoiceTenant,
  opts: { freight?: number; discount?: number; quantities?: number[] } = {},
): Promise<{ orderId: string; fulfillmentId: string; order: any }> {
  const q = opts.quantities ?? [3, 2];
  const order = await createOrder(t, {
    customerId: t.customer.hash,
    items: t.products.map((p, i) => ({ productId: p.hash, quantity: q[i], unitPrice: i === 0 ? '10.50' : '19.90' })),
    ...(opts.freight !== undefined ? { freight: opts.freight } : {}),
    ...(opts.discount !== undefined ? { discount: opts.discount } : {}),
  });
  const res = await fulfill(
    t,
    order.id,
    order.items.map((i: any) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
  );
  if (res.status !== 201) throw new Error(`fulfil: ${res.status} ${JSON.stringify(res.body)}`);
  return { orderId: order.id, fulfillmentId: res.body.fulfillment.id, order };
}

export const filialHash = (t: TestTenant, i = 0) => encodeId('filial', t.filialIds[i]);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * MySQL: holds the company's model-55 série rows (FOR UPDATE, in a transaction of this test) so that
 * issuing transactions, which take their number from it, wait inside; `release` lets them go on.
 */
export async function holdSeries(companyId: number): Promise<{ release: () => Promise<void> }> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  await runner.query('SELECT id FROM invoice_series WHERE company_id = ? AND model = 55 FOR UPDATE', [companyId]);
  return {
    release: async () => {
      try {
        await runner.commitTransaction();
      } finally {
        await runner.release();
      }
    },
  };
}

/** MySQL: waits (≤ `timeoutMs`) until `n` transactions on this database wait for a lock; answers how many did. */
export async function lockWaiters(n: number, timeoutMs = 20_000): Promise<number> {
  let seen = 0;
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await pause(50)) {
    const [row] = await dataSource.query(
      // MariaDB lists a transaction that has not written yet nowhere in innodb_trx while it waits on its first
      // locking read: a statement still running on a row lock (FOR UPDATE, the claim lock's upsert) counts too.
      "SELECT COUNT(*) AS n FROM information_schema.processlist p LEFT JOIN information_schema.innodb_trx x ON p.id = x.trx_mysql_thread_id WHERE p.db = DATABASE() AND p.id <> CONNECTION_ID() AND p.command = 'Query' AND (x.trx_state = 'LOCK WAIT' OR (p.time >= 1 AND (p.info LIKE '%FOR UPDATE%' OR p.info LIKE '%outbound_nfe_claim_lock%')))",
    );
    seen = Number(row.n);
    if (seen >= n) break;
  }
  return seen;
}
