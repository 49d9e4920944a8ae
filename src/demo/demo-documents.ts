import { randomUUID } from 'node:crypto';
import { signToken } from '../core/auth/jwt';
import { businessToday } from '../core/business-date';
import { NO_UNIT, readerOf, unitOfWork } from '../core/db/transaction';
import { decodeId } from '../core/hashids';
import { CTE_XML_EXAMPLE, NFE_XML_EXAMPLE } from '../core/openapi/example-documents';
import { Company } from '../modules/tenancy';
import { DemoDocument } from './demo-document.entity';
import { DemoDocumentKind, RecordedDemoDocuments, recordedDemoDocuments } from './demo-document-records';
import { forgetDemoExampleIds } from './demo-ids';
import { DEMO_COMPANY_CNPJ, DemoTenantSummary, summarize } from './demo-seed';

/*
 * One of each document the API's examples refer to, made for the demo tenant through the app's own HTTP
 * routes (so every business rule applies: stock, numbering, taxes, the authority's answer), against the
 * local simulator the demo's filiais are attached to. What was made is kept in `demo_document` (kind →
 * row id): a restart finds it and does not seed again, and the OpenAPI document's path examples show
 * those ids (demo-ids.ts), so Swagger UI's "Try it out" reaches rows that exist.
 *
 * Each step makes the kinds it names, once: a step whose kinds are recorded is skipped, one whose
 * prerequisites are missing (an earlier step failed) is skipped and reported, so a restart after a
 * failure makes only what is missing. Steps are in the order of how many operations they unlock.
 * Not made: an EFD ICMS/IPI file (the demo's filiais are Simples Nacional, which files none: 422
 * EFD_NOT_REQUIRED), Pix charges and payments (they need a PSP connection), a DF-e batch (a ZIP upload).
 */

export interface DemoDocumentsResult {
  /** Kinds made by this call (empty: everything was already there — "demo documents present"). */
  made: DemoDocumentKind[];
  /** Kinds already recorded before this call. */
  present: DemoDocumentKind[];
  /** Steps that did not complete: their kinds and why. */
  failed: { kinds: DemoDocumentKind[]; reason: string }[];
}

type Made = RecordedDemoDocuments;

/** The parts of the API's answers the steps read (the routes' response schemas hold the rest). */
interface WithId {
  id: string;
}
interface OrderAnswer extends WithId {
  items: { salesOrderItemId: string; quantity: number }[];
  fiscalDocument?: { id: string; status: string } | null;
}
interface InvoiceAnswer extends WithId {
  status: string;
  cStat: string | null;
  xMotivo: string | null;
}
interface Page<T> {
  data: T[];
}

interface Api {
  summary: DemoTenantSummary;
  /** Hashids recorded so far (earlier steps and earlier starts). */
  ids: Made;
  feedAuthority?: (procXml: string) => void;
  call: <T = WithId>(method: string, path: string, body?: unknown, filial?: number) => Promise<T>;
}

interface Step {
  kinds: DemoDocumentKind[];
  needs?: DemoDocumentKind[];
  run(api: Api): Promise<Made>;
}

// The business date (Brasília): between 21:00 and 24:00 there the UTC date is already tomorrow's.
const today = () => businessToday();

// The demo's rows (demo-seed.ts): products in code order, customers (0 counter, 1 Maria, 2 Padaria), suppliers (0 the drinks distributor).
const RICE = 2;
const COFFEE = 4;
const BAKERY = 2;

/** The demo's NFC-e settings: SP's homologação QR code and consultation addresses, the NFC-e issued with the sale. */
const NFCE_SETTINGS = {
  series: 1,
  qrVersion: 3,
  qrCodeUrl: 'https://www.homologacao.nfce.fazenda.sp.gov.br/qrcode',
  consultUrl: 'https://www.homologacao.nfce.fazenda.sp.gov.br/consulta',
  autoIssue: true,
};

const EXAMPLE_NFE_KEY = /<chNFe>(\d{44})<\/chNFe>/.exec(NFE_XML_EXAMPLE)![1];

const STEPS: Step[] = [
  {
    kinds: ['sales-order', 'sales-order-item'],
    async run({ summary, call }) {
      const order = await call<OrderAnswer>('POST', '/sales-order', {
        customerId: summary.customerIds[BAKERY],
        items: [
          { productId: summary.productIds[RICE], quantity: 4 },
          { productId: summary.productIds[COFFEE], quantity: 6 },
        ],
        paymentTerms: { installmentDays: [30] },
        notes: 'Pedido de demonstração',
      });
      return { 'sales-order': order.id, 'sales-order-item': order.items[0].salesOrderItemId };
    },
  },
  {
    kinds: ['fulfillment'],
    needs: ['sales-order'],
    async run({ ids, call }) {
      const order = await call<OrderAnswer>('GET', `/sales-order/detail/${ids['sales-order']}`);
      const r = await call<{ fulfillment: WithId }>('POST', `/sales-order/${ids['sales-order']}/fulfill`, {
        items: order.items.map((i) => ({ salesOrderItemId: i.salesOrderItemId, quantity: i.quantity })),
      });
      return { fulfillment: r.fulfillment.id };
    },
  },
  {
    kinds: ['invoice'],
    needs: ['fulfillment'],
    async run({ ids, call }) {
      const invoice = await call<InvoiceAnswer>('POST', '/invoices/issue', { fulfillmentId: ids.fulfillment });
      if (invoice.status !== 'AUTHORIZED')
        throw new Error(`the NF-e ended ${invoice.status} ${invoice.cStat ?? ''} ${invoice.xMotivo ?? ''}`);
      return { invoice: invoice.id };
    },
  },
  {
    kinds: ['invoice-series'],
    needs: ['invoice'],
    async run({ summary, call }) {
      const series = await call<Page<{ id: string; model: number }>>('GET', `/invoices/series/${summary.filialIds[0]}`);
      const nfe = series.data.find((x) => x.model === 55);
      if (!nfe) throw new Error('no model-55 série after the first NF-e');
      return { 'invoice-series': nfe.id };
    },
  },
  {
    kinds: ['receivable', 'receivable-receipt'],
    needs: ['fulfillment'],
    async run({ summary, ids, call }) {
      const list = await call<Page<{ id: string; fulfillmentId: string | null; openAmount: number }>>(
        'GET',
        `/receivables/${summary.filialIds[0]}?pageSize=100`,
      );
      const receivable = list.data.find((x) => x.fulfillmentId === ids.fulfillment);
      if (!receivable) throw new Error("the fulfilment's receivable is not listed");
      // A part received: the rest stays open for a boleto, a Pix charge, another receipt.
      const amount = Math.floor(Number(receivable.openAmount) / 4);
      const r = await call<{ receipt: WithId }>('POST', `/receivables/receive/${receivable.id}`, {
        amount,
        receiptDate: today(),
        method: 'PIX',
      });
      return { receivable: receivable.id, 'receivable-receipt': r.receipt.id };
    },
  },
  {
    kinds: ['entry-cfop-rule'],
    async run({ call }) {
      const rule = await call('POST', '/entry-document/cfop-rules', { issuerCfop: '5102', entryCfop: '1102' });
      return { 'entry-cfop-rule': rule.id };
    },
  },
  {
    kinds: ['product-map'],
    async run({ summary, call }) {
      // The supplier's code in the example NF-e (core/openapi/example-documents.ts) is the demo's coffee.
      const map = await call('POST', '/entry-document/product-map/link', {
        supplierDocument: '60746948000112',
        supplierProductCode: 'CAF-500',
        productId: summary.productIds[COFFEE],
        supplierUnit: 'UN',
      });
      return { 'product-map': map.id };
    },
  },
  {
    kinds: ['entry-document', 'entry-document-item', 'nfe-inbound'],
    async run({ call, feedAuthority }) {
      try {
        feedAuthority?.(NFE_XML_EXAMPLE);
      } catch (err) {
        // A simulator that kept its state from an earlier start holds it already.
        if (!/already fed/.test((err as Error).message)) throw err;
      }
      const r = await call<{ entryDocument: WithId; inbound: WithId }>('POST', '/entry-document/nfe/importar-xml', {
        xml: NFE_XML_EXAMPLE,
      });
      const doc = await call<WithId & { items: WithId[] }>('GET', `/entry-document/detail/${r.entryDocument.id}`);
      return { 'entry-document': doc.id, 'entry-document-item': doc.items[0].id, 'nfe-inbound': r.inbound.id };
    },
  },
  {
    kinds: ['payable', 'payable-payment'],
    needs: ['entry-document'],
    async run({ ids, call }) {
      // The upload vouched for by the authority (NFeConsultaProtocolo4) before it is confirmed.
      await call('POST', '/entry-document/nfe/consultar-protocolo', { accessKey: EXAMPLE_NFE_KEY });
      await call('POST', `/entry-document/confirm/${ids['entry-document']}`, {});
      const payables = await call<Page<{ id: string; openAmount: number }>>(
        'GET',
        `/entry-document/contas-pagar/documento/${ids['entry-document']}`,
      );
      const payable = payables.data[0];
      if (!payable) throw new Error('the confirmed entry document has no payable');
      const amount = Math.floor(Number(payable.openAmount) / 4);
      const r = await call<{ payment: WithId }>('POST', `/entry-document/contas-pagar/pay/${payable.id}`, {
        amount,
        paymentDate: today(),
        method: 'PIX',
      });
      return { payable: payable.id, 'payable-payment': r.payment.id };
    },
  },
  {
    kinds: ['bank-account', 'boleto'],
    needs: ['receivable'],
    async run({ summary, ids, call }) {
      // Receipts of the account's boletos are recorded under a payment method of kind BANK_SLIP (made once).
      await call('POST', '/catalog/payment-methods', { code: 'BOLETO', name: 'Boleto bancário', kind: 'BANK_SLIP' }).catch((err: Error) => {
        if (!/→ 409/.test(err.message)) throw err;
      });
      const account = await call('POST', '/collection/bank-accounts', {
        paymentMethodCode: 'BOLETO',
        filialId: summary.filialIds[0],
        name: 'Banco do Brasil cobrança',
        bankCode: '001',
        agency: '1234',
        agencyDigit: '3',
        account: '12345',
        accountDigit: '5',
        carteira: '17',
        beneficiaryCode: '1234567',
        layout: 'CNAB240',
      });
      const boleto = await call('POST', `/receivables/${ids.receivable}/boleto`, { bankAccountId: account.id });
      return { 'bank-account': account.id, boleto: boleto.id };
    },
  },
  {
    kinds: ['remittance'],
    needs: ['boleto'],
    async run({ ids, call }) {
      const r = await call('POST', '/collection/remittances', { bankAccountId: ids['bank-account'] });
      return { remittance: r.id };
    },
  },
  {
    kinds: ['nfce'],
    async run({ summary, call }) {
      // The counter's NFC-e settings, saved only where the filial has none (a saved configuration is left alone).
      const saved = await call<{ configured: boolean }>('GET', `/nfce/configuration/${summary.filialIds[0]}`);
      if (!saved.configured) await call('PUT', `/nfce/configuration/${summary.filialIds[0]}`, NFCE_SETTINGS);
      const sale = await call<OrderAnswer>('POST', '/sales-order', {
        flowMode: 'QUICK_SALE',
        items: [{ productId: summary.productIds[0], quantity: 2 }],
        payments: [{ method: 'CASH', amount: 20 }],
      });
      if (!sale.fiscalDocument?.id) throw new Error(`the quick sale made no NFC-e: ${JSON.stringify(sale.fiscalDocument ?? null)}`);
      return { nfce: sale.fiscalDocument.id };
    },
  },
  {
    kinds: ['purchase-order', 'purchase-order-item'],
    async run({ summary, call }) {
      const po = await call<WithId & { items: { purchaseOrderItemId: string }[] }>('POST', '/purchase', {
        supplierId: summary.supplierIds[0],
        items: [{ productId: summary.productIds[0], quantity: 48, unitPrice: 2.8 }],
        notes: 'Pedido de compra de demonstração',
      });
      return { 'purchase-order': po.id, 'purchase-order-item': po.items[0].purchaseOrderItemId };
    },
  },
  {
    kinds: ['cash-session'],
    async run({ summary, call }) {
      const s = await call('POST', '/cash-sessions', {
        filialId: summary.filialIds[0],
        terminalId: 'CX01',
        operatorId: 'ana.caixa',
        openingFloat: 150,
      });
      return { 'cash-session': s.id };
    },
  },
  {
    kinds: ['return'],
    needs: ['invoice', 'sales-order-item'],
    async run({ summary, ids, call }) {
      const r = await call('POST', `/returns/${summary.filialIds[0]}`, {
        customerId: summary.customerIds[BAKERY],
        reason: 'Embalagem danificada na entrega',
        refundMethod: 'PIX',
        items: [{ salesOrderItemId: ids['sales-order-item'], quantity: 1, restock: true }],
      });
      return { return: r.id };
    },
  },
  {
    kinds: ['supplier-return'],
    needs: ['payable', 'entry-document-item'],
    async run({ ids, call }) {
      const r = await call('POST', `/supplier-returns/issue/${ids['entry-document']}`, {
        reason: 'Mercadoria chegou avariada',
        items: [{ entryDocumentItemId: ids['entry-document-item'], quantity: 1 }],
      });
      return { 'supplier-return': r.id };
    },
  },
  {
    kinds: ['cte'],
    async run({ call }) {
      const r = await call<{ cte: WithId }>('POST', '/entry-document/cte/stage-xml', { xml: CTE_XML_EXAMPLE });
      return { cte: r.cte.id };
    },
  },
  {
    kinds: ['transfer'],
    async run({ summary, call }) {
      const t = await call('POST', '/transfers', {
        toFilialId: summary.filialIds[1],
        items: [{ productId: summary.productIds[1], quantity: 6 }],
      });
      return { transfer: t.id };
    },
  },
  {
    kinds: ['quote'],
    async run({ summary, call }) {
      const q = await call('POST', '/sales-order', {
        type: 'QUOTE',
        customerId: summary.customerIds[1],
        items: [{ productId: summary.productIds[3], quantity: 2 }],
      });
      return { quote: q.id };
    },
  },
  {
    kinds: ['webhook'],
    async run({ call }) {
      const w = await call('POST', '/webhooks', {
        url: 'https://erp.example.com.br/hooks/backoffice',
        description: 'Assinatura de demonstração',
      });
      return { webhook: w.id };
    },
  },
  {
    kinds: ['st-agreement'],
    async run({ call }) {
      const a = await call('POST', '/fiscal/st-agreements', {
        originUf: 'SP',
        destinationUf: 'SP',
        ncmPrefix: '09012100',
        mva: 12,
        validFrom: today(),
        source: 'Protocolo ICMS 41/2008',
      });
      return { 'st-agreement': a.id };
    },
  },
  {
    // Last: an open count holds the filial's stock moves of its products until it is closed or cancelled.
    kinds: ['inventory-count'],
    async run({ call }) {
      const c = await call('POST', '/inventory/counts', {});
      return { 'inventory-count': c.id };
    },
  },
];

/**
 * Makes the demo documents missing for the demo tenant by calling the API at `baseUrl` (…/api) with a
 * token of the whole company. Undefined when there is no demo tenant.
 */
export interface DemoDocumentsOptions {
  /** The API's base URL (…/api). */
  baseUrl: string;
  /**
   * Registers an authorized nfeProc at the authority the demo is attached to (the local simulator's
   * feed): the demo supplier's example NF-e is known there, so consulting its key confirms the upload
   * and the entry document can be confirmed (upload-trust.ts). Without it the entry document stays a draft.
   */
  feedAuthority?: (procXml: string) => void;
}

export async function seedDemoDocuments({ baseUrl, feedAuthority }: DemoDocumentsOptions): Promise<DemoDocumentsResult | undefined> {
  const em = readerOf(NO_UNIT);
  const company = await em.findOneBy(Company, { cnpj: DEMO_COMPANY_CNPJ });
  if (!company) return undefined;
  const summary = await summarize(em, company);
  const token = signToken({ sub: 'demo-seed', companyId: summary.companyId, filiais: ['*'], scope: '*' }, '15m');
  const ids = await recordedDemoDocuments(company.id);
  const result: DemoDocumentsResult = { made: [], present: Object.keys(ids) as DemoDocumentKind[], failed: [] };

  const call: Api['call'] = async <T>(method: string, path: string, body?: unknown, filial = 0): Promise<T> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'x-company-id': summary.companyId,
        'x-filial-id': summary.filialIds[filial],
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        // Every write with a key of its own, as a client that retries safely sends.
        ...(method === 'GET' ? {} : { 'idempotency-key': `demo-seed-${randomUUID()}` }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    const json = (text ? JSON.parse(text) : undefined) as (T & { code?: string; detail?: string; errors?: unknown }) | undefined;
    if (res.status >= 300)
      throw new Error(
        `${method} ${path} → ${res.status} ${json?.code ?? ''} ${json?.detail ?? text.slice(0, 200)} ${json?.errors ? JSON.stringify(json.errors) : ''}`.trim(),
      );
    return json as T;
  };

  for (const step of STEPS) {
    if (step.kinds.every((k) => ids[k])) continue;
    const missing = (step.needs ?? []).filter((k) => !ids[k]);
    if (missing.length) {
      result.failed.push({ kinds: step.kinds, reason: `needs ${missing.join(', ')}` });
      continue;
    }
    try {
      const made = await step.run({ summary, ids, call, feedAuthority });
      const rows = step.kinds.map((kind) => {
        const hash = made[kind];
        if (!hash) throw new Error(`the answer carries no ${kind} id`);
        return { companyId: company.id, kind, documentId: decodeId(kind === 'quote' ? 'sales-order' : kind, hash) };
      });
      await unitOfWork((uow) => uow.em.insert(DemoDocument, rows));
      Object.assign(ids, made);
      result.made.push(...step.kinds);
    } catch (err) {
      result.failed.push({ kinds: step.kinds, reason: (err as Error).message });
    }
  }
  // The served document's examples now name what was made.
  if (result.made.length) forgetDemoExampleIds();
  return result;
}
