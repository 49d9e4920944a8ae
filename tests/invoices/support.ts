import { EntityManager, In } from 'typeorm';
import { setInvoicesConfig } from '../../src/core/config/invoices';
import { dataSource } from '../../src/core/db/data-source';
import { Dec } from '../../src/core/decimal';
import { encodeId } from '../../src/core/hashids';
import { Customer } from '../../src/modules/catalog/entities/customer.entity';
import { Product } from '../../src/modules/catalog/entities/product.entity';
import type { ComputeFiscalDocument, ComputedFiscalDocument, FiscalItem } from '../../src/modules/fiscal/fiscal-document';
import { provideFiscalEngine } from '../../src/modules/invoices/fiscal-engine';
import { saveCertificate } from '../../src/modules/sefaz/certificate/certificate.service';
import { setFilialEndpoint } from '../../src/modules/sefaz/sefaz-connection';
import { AuthoritySimulator, SimulatorEndpoints } from '../../src/modules/sefaz-simulator/simulator';
import { Filial } from '../../src/modules/tenancy/entities/filial.entity';
import { addStock, makeCustomer, makeProduct } from '../support/catalog';
import { createTestTenant, randomCnpj, TestTenant } from '../support/tenant';
import { createOrder, fulfill } from '../sales-order/support';
import { authority } from '../sefaz/support';

/*
 * The emission tests' world: a tenant whose first filial has an A1 certificate of the local authority
 * simulator and points at it, a customer with an address and email, products with NCM, and orders
 * fulfilled through the sales-order routes. Until the tax engine (issue 29) is merged, a stand-in
 * engine answers the engine's contract with fixed rates (ICMS 18 %, PIS 1.65 %, COFINS 7.6 %); it
 * lives in tests only, and the emission path never computes a tax itself.
 */

const round2 = (d: Dec) => d.toDecimalPlaces(2, Dec.ROUND_HALF_UP);

const standInEngine: ComputeFiscalDocument = async (ctx, request, em?: EntityManager) => {
  const m = em ?? dataSource.manager;
  const [filial, customer, products] = await Promise.all([
    m.findOneByOrFail(Filial, { id: request.filialId, companyId: ctx.companyId }),
    request.customerId === null ? null : m.findOneByOrFail(Customer, { id: request.customerId, companyId: ctx.companyId }),
    m.find(Product, { where: { companyId: ctx.companyId, id: In(request.items.map((i) => i.productId)) } }),
  ]);
  const byId = new Map(products.map((p) => [p.id, p]));
  const gross = request.items.map((i) => round2(new Dec(i.quantity).mul(i.unitPrice)));
  const totalGross = gross.reduce((s, g) => s.add(g), new Dec(0));
  const freight = new Dec(request.freight ?? 0);
  let given = new Dec(0);
  const items: FiscalItem[] = request.items.map((input, i) => {
    const p = byId.get(input.productId)!;
    const q = new Dec(input.quantity);
    const price = new Dec(input.unitPrice);
    const discount = new Dec(input.discount ?? 0);
    const f = i === request.items.length - 1 ? freight.sub(given) : totalGross.isZero() ? new Dec(0) : round2(freight.mul(gross[i]).div(totalGross));
    given = given.add(f);
    const base = gross[i].sub(discount).add(f);
    const icms = round2(base.mul('0.18'));
    return {
      lineNumber: i + 1,
      productId: p.id,
      salesOrderItemId: input.salesOrderItemId ?? null,
      code: p.code,
      gtin: p.gtin ?? 'SEM GTIN',
      description: p.name,
      ncm: p.ncm ?? '22030000',
      cest: p.cest,
      cfop: '5102',
      unit: p.unit,
      quantity: q,
      unitPrice: price,
      grossTotal: gross[i],
      taxableGtin: p.gtin ?? 'SEM GTIN',
      taxableUnit: p.unit,
      taxableQuantity: q,
      taxableUnitPrice: price,
      freight: f,
      insurance: new Dec(0),
      discount,
      otherExpenses: new Dec(0),
      icms: { origin: 0, cst: '00', csosn: null, modBC: 3, baseReduction: null, base, rate: new Dec(18), value: icms, fcpBase: null, fcpRate: null, fcpValue: null, st: null, simplesCreditRate: null, simplesCreditValue: null },
      difal: null,
      ipi: null,
      pis: { cst: '01', base, rate: new Dec('1.65'), value: round2(base.mul('0.0165')) },
      cofins: { cst: '01', base, rate: new Dec('7.6'), value: round2(base.mul('0.076')) },
      ibsCbs: null,
      approximateTaxes: round2(base.mul('0.3145')),
      total: gross[i].sub(discount).add(f),
      rule: { ruleId: null, description: 'stand-in engine (tests): SALE/INTERNAL 5102 CST 00 18 %', ratesSource: 'tests' },
    };
  });
  const sum = (pick: (i: FiscalItem) => Dec) => items.reduce((s, i) => s.add(pick(i)), new Dec(0));
  const Z = new Dec(0);
  const address = { street: 'Rua das Flores', number: '100', complement: null, district: 'Centro', municipalityCode: '3550308', municipalityName: 'Sao Paulo', uf: 'SP', postalCode: '01001000', countryCode: '1058', countryName: 'Brasil', phone: null };
  const doc: ComputedFiscalDocument = {
    model: 55,
    operation: 'SALE',
    operationNature: 'Venda de mercadoria',
    direction: 1,
    purpose: 1,
    destination: 'INTERNAL',
    finalConsumer: !customer?.document || customer.document.length === 11,
    presence: request.presence ?? 1,
    issueDate: request.date,
    ruleSetId: '2026',
    issuer: { filialId: filial.id, document: filial.cnpj, name: filial.name, tradeName: null, stateRegistration: filial.stateRegistration ?? '111222333444', cnae: null, crt: 3, industrial: false, address, ufCode: '35' },
    recipient: {
      customerId: customer?.id ?? null,
      personType: customer?.document?.length === 11 ? 'PF' : 'PJ',
      document: customer?.document ?? null,
      name: customer?.name ?? null,
      ieIndicator: 9,
      stateRegistration: null,
      email: customer?.email ?? null,
      address: { ...address, street: 'Avenida Paulista', number: '1000' },
    },
    items,
    totals: {
      vBC: sum((i) => i.icms.base), vICMS: sum((i) => i.icms.value), vICMSDeson: Z, vFCPUFDest: Z, vICMSUFDest: Z, vICMSUFRemet: Z, vFCP: Z, vBCST: Z, vST: Z, vFCPST: Z, vFCPSTRet: Z,
      vProd: sum((i) => i.grossTotal), vFrete: sum((i) => i.freight), vSeg: Z, vDesc: sum((i) => i.discount), vII: Z, vIPI: Z, vIPIDevol: Z,
      vPIS: sum((i) => i.pis.value), vCOFINS: sum((i) => i.cofins.value), vOutro: Z, vNF: sum((i) => i.total), vTotTrib: sum((i) => i.approximateTaxes), ibsCbs: null, vNFTot: null,
    },
    warnings: [],
  };
  return doc;
};

export function useStandInEngine(): void {
  provideFiscalEngine(standInEngine);
}

export interface InvoiceTenant extends TestTenant {
  cnpj: string;
  sim: AuthoritySimulator;
  endpoints: SimulatorEndpoints;
  customer: Awaited<ReturnType<typeof makeCustomer>>;
  products: Awaited<ReturnType<typeof makeProduct>>[];
}

/** A tenant ready to bill: certificate and endpoint of the simulator on filial 0, a customer with email, stocked products. */
export async function invoiceTenant(opts: { certificate?: boolean; email?: string | null } = {}): Promise<InvoiceTenant> {
  useStandInEngine();
  setInvoicesConfig({ timeoutMs: 1500 });
  const { sim, endpoints } = await authority();
  const t = await createTestTenant({ environment: 'HOMOLOGATION' });
  const cnpj = (await dataSource.manager.findOneByOrFail(Filial, { id: t.filialIds[0] })).cnpj;
  if (opts.certificate !== false) {
    const a1 = sim.issueClientCertificate(cnpj, 'MERCADO TESTE LTDA', 'senha-a1');
    await saveCertificate(t.ctx, t.filialIds[0], { pfx: a1.pfx.toString('base64'), password: a1.password });
  }
  await setFilialEndpoint(t.companyId, t.filialIds[0], { distUrl: endpoints.distUrl, eventUrl: endpoints.eventUrl, caPem: endpoints.caPem, label: 'local simulator' });
  const customer = await makeCustomer(t, { document: randomCnpj(), email: opts.email === undefined ? 'compras@cliente.com.br' : opts.email } as never);
  const products = [await makeProduct(t, { ncm: '22030000', gtin: null } as never), await makeProduct(t, { ncm: '10063021', unit: 'PCT' } as never)];
  for (const p of products) await addStock(t, 0, p.id, 10_000, '3');
  return Object.assign(t, { cnpj, sim, endpoints, customer, products });
}

/** An order of the tenant's customer, fulfilled whole: its fulfilment's hashid. */
export async function fulfilledOrder(t: InvoiceTenant, opts: { freight?: number; discount?: number; quantities?: number[] } = {}): Promise<{ orderId: string; fulfillmentId: string; order: any }> {
  const q = opts.quantities ?? [3, 2];
  const order = await createOrder(t, {
    customerId: t.customer.hash,
    items: t.products.map((p, i) => ({ productId: p.hash, quantity: q[i], unitPrice: i === 0 ? '10.50' : '19.90' })),
    ...(opts.freight !== undefined ? { freight: opts.freight } : {}),
    ...(opts.discount !== undefined ? { discount: opts.discount } : {}),
  });
  const res = await fulfill(t, order.id, order.items.map((i: any) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })));
  if (res.status !== 201) throw new Error(`fulfil: ${res.status} ${JSON.stringify(res.body)}`);
  return { orderId: order.id, fulfillmentId: res.body.fulfillment.id, order };
}

export const filialHash = (t: TestTenant, i = 0) => encodeId('filial', t.filialIds[i]);
