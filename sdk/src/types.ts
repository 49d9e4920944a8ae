/* Request and response types of the API, as the service's mappers and schemas define them. */

/** Decimal inputs accept numbers or numeric strings; outputs are numbers rounded to their scale. */
export type DecimalInput = number | string;

export interface Pagination {
  page: number;
  pageSize: number;
  /** Counted up to a cap on big lists (`totalCapped`); null with `includeTotal: false`. */
  total: number | null;
  totalCapped?: boolean;
  totalPages: number | null;
  hasMore: boolean;
  nextCursor: string | null;
}

export interface Page<T> {
  data: T[];
  pagination: Pagination;
}

export interface PageQuery {
  page?: number;
  pageSize?: number;
  /** Keyset cursor from `pagination.nextCursor` (deep scrolling). */
  cursor?: string;
  includeTotal?: boolean;
}

// ---- sales orders -----------------------------------------------------------------------------

export type SalesOrderType = 'ORDER' | 'QUOTE';
export type FlowMode = 'STANDARD' | 'QUICK_SALE';
/** New values may be added; clients must tolerate unknown ones. */
export type SalesOrderStatus = 'OPEN' | 'PARTIALLY_FULFILLED' | 'FULFILLED' | 'CANCELLED' | 'CLOSED' | 'GROUPED';

export interface LineOrigin {
  salesOrderId: string;
  salesOrderItemId: string;
  quantity: number;
}

export interface SalesOrderItem {
  salesOrderItemId: string;
  lineNumber: number;
  productId: string;
  description: string;
  unit: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  total: number;
  orderDiscountShare: number;
  fulfilledQuantity: number;
  returnedQuantity: number;
  cancelledQuantity: number;
  remainingQuantity: number;
  origins: LineOrigin[] | null;
}

export interface SalesOrderTotals {
  gross: number;
  itemsDiscount: number;
  items: number;
  discount: number;
  freight: number;
  total: number;
}

export interface SalesOrder {
  id: string;
  code: number;
  filialId: string;
  type: SalesOrderType;
  flowMode: FlowMode;
  status: SalesOrderStatus;
  customerId: string | null;
  customerName: string | null;
  sellerId: string | null;
  sellerName: string | null;
  alias: string | null;
  items: SalesOrderItem[];
  discount: number;
  freight: number;
  totals: SalesOrderTotals;
  notes: string | null;
  /** Each fulfilment is billed in these installments (receivables); null: one installment due on billing. */
  paymentTerms: PaymentTerms | null;
  validUntil: string | null;
  expired: boolean;
  groupedIntoId: string | null;
  groupedFromIds: string[];
  cancelReason: string | null;
  cancelledAt: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** Days from the billing date of each installment, e.g. `{ installmentDays: [30, 60, 90] }`. */
export interface PaymentTerms {
  installmentDays: number[];
}

export interface SalesOrderItemInput {
  productId: string;
  quantity: DecimalInput;
  /** Defaults to the product's price. */
  unitPrice?: DecimalInput;
  discount?: DecimalInput;
  description?: string;
}

export interface CreateSalesOrderRequest {
  type?: SalesOrderType;
  flowMode?: FlowMode;
  customerId?: string | null;
  sellerId?: string | null;
  alias?: string | null;
  notes?: string | null;
  paymentTerms?: PaymentTerms | null;
  discount?: DecimalInput;
  freight?: DecimalInput;
  /** Quotes only, 'YYYY-MM-DD' (default 30 days). */
  validUntil?: string | null;
  items: SalesOrderItemInput[];
}

export interface UpdateSalesOrderRequest {
  version: number;
  customerId?: string | null;
  sellerId?: string | null;
  alias?: string | null;
  notes?: string | null;
  paymentTerms?: PaymentTerms | null;
  discount?: DecimalInput;
  freight?: DecimalInput;
  validUntil?: string | null;
  /** The full new list of lines; `salesOrderItemId` keeps a line, lines left out are removed. */
  items?: (SalesOrderItemInput & { salesOrderItemId?: string })[];
}

export interface FindSalesOrdersQuery extends PageQuery {
  /** Default: the client's filial. */
  filialId?: string;
  /** Numeric: code equal or prefix. Text: customer name/trade name/document, seller name/alias, order alias. */
  search?: string;
  status?: SalesOrderStatus;
  type?: SalesOrderType;
  customerId?: string;
  sellerId?: string;
  /** 'YYYY-MM-DD' (Brasília dates). */
  createdFrom?: string;
  createdTo?: string;
  sort?: '-code' | 'code' | '-createdAt' | 'createdAt';
}

export interface FulfillItemInput {
  salesOrderItemId: string;
  quantity: DecimalInput;
}

export interface ItemProgress {
  salesOrderItemId: string;
  productId: string;
  description: string;
  unit: string;
  ordered: number;
  fulfilled: number;
  returned: number;
  cancelled: number;
  remaining: number;
}

export interface Fulfillment {
  id: string;
  salesOrderId: string;
  filialId: string;
  actor: string | null;
  createdAt: string;
  items: { salesOrderItemId: string; productId: string; quantity: number; unitCost: number }[];
}

export interface FulfillResult {
  fulfillment: Fulfillment;
  order: { id: string; code: number; status: SalesOrderStatus; version: number; items: ItemProgress[] };
}

export interface FulfillmentView {
  salesOrderId: string;
  code: number;
  status: SalesOrderStatus;
  version: number;
  items: ItemProgress[];
  fulfillments: Fulfillment[];
}

export interface GroupPreview {
  canGroup: boolean;
  blockingProblems: { code: string; message: string; salesOrderId: string | null; currentStatus?: string }[];
  warnings: { code: string; message: string }[];
  order: {
    filialId: string;
    type: 'ORDER';
    customerId: string | null;
    sellerId: string | null;
    notes: string | null;
    discount: number;
    freight: number;
    totals: SalesOrderTotals;
    items: (Omit<SalesOrderItem, 'salesOrderItemId' | 'fulfilledQuantity' | 'returnedQuantity' | 'cancelledQuantity' | 'remainingQuantity' | 'origins'> & { origins: LineOrigin[] })[];
    groupedFromIds: string[];
  };
}

export interface CancelPreview {
  canCancel: boolean;
  currentStatus: SalesOrderStatus;
  resultingStatus: SalesOrderStatus | null;
  blockingProblems: { code: string; message: string }[];
  itemsCancelled: { salesOrderItemId: string; quantity: number }[];
}

// ---- entry documents: line review -------------------------------------------------------------

export type EntryDocumentStatus = 'DRAFT' | 'CONFIRMED' | 'CANCELLED';
export type EntryDocumentOrigin = 'MANUAL' | 'NFE_XML' | 'NFE_SEFAZ';
/** MATCHED: product set · PENDING: no product yet · IGNORED: kept, posts no stock, still in the payable. */
export type ItemReviewStatus = 'MATCHED' | 'PENDING' | 'IGNORED';

export interface Tax {
  cst: string | null;
  base: number | null;
  rate: number | null;
  value: number | null;
}

export interface EntryDocumentItem {
  id: string;
  lineNumber: number;
  productId: string | null;
  product: { code: string; name: string; unit: string; stockControlled: boolean } | null;
  reviewStatus: ItemReviewStatus;
  supplierProductCode: string | null;
  /** Booked values (the shop's), beside `declared`. */
  description: string;
  ncm: string | null;
  cfop: string | null;
  unit: string;
  quantity: number;
  unitPrice: number;
  total: number;
  discount: number;
  freight: number;
  insurance: number;
  otherExpenses: number;
  landedTotal: number;
  /** CT-e freight apportioned onto the line: in its landed unit cost, not in the document total. */
  apportionedFreight: number;
  taxes: Record<'icms' | 'icmsSt' | 'ipi' | 'pis' | 'cofins', Tax>;
  conversionFactor: number;
  stockQuantity: number;
  unitCost: number;
  /** The supplier's values as declared on the invoice: never change. */
  declared: { code: string | null; description: string | null; unit: string | null; quantity: number | null; unitPrice: number | null; ncm: string | null; cfop: string | null };
  /** The purchase-order line it receives against, if linked. */
  purchaseOrderItemId: string | null;
  /** How the line is booked: inbound CFOP and operation class. */
  entryCfop: string | null;
  operationClass: string | null;
}

export interface DocumentCheck {
  code: string;
  message: string;
  blocksConfirmation: boolean;
  lineNumber?: number;
  details?: Record<string, unknown>;
}

export interface EntryDocumentTotals {
  products: number;
  freight: number;
  insurance: number;
  discount: number;
  otherExpenses: number;
  ipi: number;
  icmsSt: number;
  total: number;
}

export interface EntryDocument {
  id: string;
  filialId: string;
  status: EntryDocumentStatus;
  origin: EntryDocumentOrigin;
  model: string;
  series: string;
  number: string;
  accessKey: string | null;
  issueDate: string;
  entryDate: string;
  supplier: { id: string; document: string; name: string; stateRegistration: string | null; uf: string | null };
  operationNature: string | null;
  totals: EntryDocumentTotals;
  expectedTotals: Partial<EntryDocumentTotals> | null;
  itemCount: number;
  pendingItemCount: number;
  notes: string | null;
  cancelReason: string | null;
  version: number;
  confirmedAt: string | null;
  cancelledAt: string | null;
  nfeCancelledByIssuerAt: string | null;
  createdAt: string;
  updatedAt: string;
  items: EntryDocumentItem[];
  installments: { number: number; dueDate: string; amount: number }[];
  payables: Payable[];
  /** The inbound NF-e record it was imported from. */
  nfe: Record<string, unknown> | null;
  review: { blockingProblems: DocumentCheck[]; warnings: DocumentCheck[] } | null;
}

/** One line's review by id; absent fields stay as they are. */
export interface LineReviewInput {
  id: string;
  /** null: no product (PENDING unless IGNORED is asked). */
  productId?: string | null;
  conversionFactor?: DecimalInput;
  /** MATCHED needs a product; PENDING clears it; IGNORED keeps the line off stock. */
  reviewStatus?: ItemReviewStatus;
  /** Also save (supplier, code) → (product, factor) in the product map. */
  saveMapping?: boolean;
  /** The purchase-order line the line receives against (same filial, supplier and product); null unlinks. */
  purchaseOrderItemId?: string | null;
  /** Inbound CFOP (1xxx/2xxx/3xxx) the line is booked with; null: back to the company's rules and the defaults. */
  entryCfop?: string | null;
  /** Operation class (not VALUE_ADJUSTMENT); null: back to the one the entry CFOP and finNFe give. */
  operationClass?: string | null;
}

export interface AppliedMapping {
  itemId: string;
  lineNumber: number;
  productId: string;
  conversionFactor: number;
}

export interface ApplyProductMapResult extends EntryDocument {
  applied: AppliedMapping[];
}

export interface EntryDocumentCancelPreview {
  entryDocumentId: string;
  status: EntryDocumentStatus;
  version: number;
  stockMovements: Record<string, unknown>[];
  payables: Payable[];
  warnings: DocumentCheck[];
  blockingProblems: DocumentCheck[];
}

// ---- accounts payable -------------------------------------------------------------------------

export type PayableStatus = 'OPEN' | 'PARTIALLY_PAID' | 'PAID' | 'CANCELLED';

export type PayableSource = 'ENTRY_DOCUMENT' | 'CTE';

export interface Payable {
  id: string;
  filialId: string;
  /** null for a CT-e's payable (`source` CTE). */
  entryDocumentId: string | null;
  /** An entry document's installment, or a CT-e's freight (the carrier as supplier). */
  source: PayableSource;
  cteId: string | null;
  supplier: { id: string; document: string; name: string };
  documentNumber: string;
  installmentNumber: number;
  issueDate: string;
  dueDate: string;
  amount: number;
  paidAmount: number;
  openAmount: number;
  status: PayableStatus;
  /** Unsettled and due before today (Brasília date). */
  overdue: boolean;
  version: number;
  cancelledAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface PayablePayment {
  id: string;
  payableId: string;
  status: 'ACTIVE' | 'REVERSED';
  paymentDate: string;
  /** The tenant's payment-method code. */
  method: string;
  /** The part of the payable this payment settles. */
  amount: number;
  interest: number;
  fine: number;
  discount: number;
  /** Money paid: amount + interest + fine − discount. */
  total: number;
  note: string | null;
  createdBy: string;
  createdAt: string;
  reversedAt: string | null;
  reversedBy: string | null;
  reversalReason: string | null;
  version: number;
}

export interface PayableDetail extends Payable {
  /** Sums of the payments that stand (not reversed). */
  paymentTotals: { amount: number; interest: number; fine: number; discount: number; total: number };
  payments: PayablePayment[];
}

export interface PaymentRequest {
  /** The part of the payable to settle: at most its open amount. */
  amount: DecimalInput;
  /** 'YYYY-MM-DD', not after today. */
  paymentDate: string;
  /** The tenant's payment-method code (e.g. 'PIX'). */
  method: string;
  /** Juros, paid on top. */
  interest?: DecimalInput | null;
  /** Multa, paid on top. */
  fine?: DecimalInput | null;
  /** Desconto, granted off the money paid. */
  discount?: DecimalInput | null;
  note?: string | null;
}

export interface PaymentResult {
  payment: PayablePayment;
  payable: PayableDetail;
}

export interface AgingBucket {
  count: number;
  openAmount: number;
}

export interface PayablesSummary {
  count: number;
  amount: number;
  paidAmount: number;
  openAmount: number;
  overdueCount: number;
  overdueAmount: number;
  byStatus: Record<PayableStatus, { count: number; amount: number; paidAmount: number }>;
  aging: {
    dueIn0To7Days: AgingBucket;
    dueIn8To30Days: AgingBucket;
    dueIn31PlusDays: AgingBucket;
    overdue1To30Days: AgingBucket;
    overdue31To60Days: AgingBucket;
    overdue61PlusDays: AgingBucket;
  };
}

export interface PayablesPage extends Page<Payable> {
  summary: PayablesSummary;
}

export interface FindPayablesQuery extends PageQuery {
  status?: PayableStatus;
  dueFrom?: string;
  dueTo?: string;
  /** Supplier name fragment or CNPJ/CPF prefix. */
  supplier?: string;
  overdue?: boolean;
  entryDocumentId?: string;
  /** ENTRY_DOCUMENT installments or CTE freight. */
  source?: PayableSource;
  sort?: 'dueDate' | '-dueDate';
}

// ---- settings ---------------------------------------------------------------------------------

export type NfeEnvironment = 'PRODUCTION' | 'HOMOLOGATION';
export type TaxRegime = 'SIMPLES_NACIONAL' | 'LUCRO_PRESUMIDO' | 'LUCRO_REAL';

export interface FilialSettings {
  filialId: string;
  name: string;
  cnpj: string;
  uf: string;
  nfeEnvironment: NfeEnvironment;
  autoCiencia: boolean;
  taxRegime: TaxRegime;
  allowNegativeStock: boolean;
  dfeSyncEnabled: boolean;
  dfeSyncIntervalMinutes: number;
  stateRegistration: string | null;
  tradeName: string | null;
  address: FilialAddress | null;
  cnae: string | null;
  /** Derived from taxRegime: 1 Simples, 2 Simples over the sublimit, 3 regime normal. */
  crt: 1 | 2 | 3;
  industrial: boolean;
  simplesExcessSublimit: boolean;
  simplesCreditRate: number | null;
  version: number;
  updatedAt: string;
}

export interface FilialAddress {
  street: string | null;
  number: string | null;
  complement: string | null;
  district: string | null;
  municipalityCode: string;
  municipalityName: string | null;
  postalCode: string | null;
  phone: string | null;
}

export interface UpdateFilialSettingsRequest {
  version: number;
  nfeEnvironment?: NfeEnvironment;
  autoCiencia?: boolean;
  taxRegime?: TaxRegime;
  allowNegativeStock?: boolean;
  dfeSyncEnabled?: boolean;
  /** At least 60. */
  dfeSyncIntervalMinutes?: number;
  stateRegistration?: string | null;
  tradeName?: string | null;
  address?: { street: string; number: string; complement?: string | null; district: string; municipalityCode: string; municipalityName: string; postalCode?: string | null; phone?: string | null };
  cnae?: string | null;
  industrial?: boolean;
  simplesExcessSublimit?: boolean;
  simplesCreditRate?: DecimalInput | null;
}

export interface CompanySettings {
  companyId: string;
  name: string;
  cnpj: string;
  purchaseQuantityTolerancePct: number;
  purchasePriceTolerancePct: number;
  purchaseToleranceMode: 'BLOCK' | 'WARN';
  version: number;
}

export interface UpdateCompanySettingsRequest {
  version: number;
  purchaseQuantityTolerancePct?: DecimalInput;
  purchasePriceTolerancePct?: DecimalInput;
  purchaseToleranceMode?: 'BLOCK' | 'WARN';
}

// ---- CT-e freight -----------------------------------------------------------------------------

export type CteStatus = 'RECEIVED' | 'APPORTIONED' | 'CANCELLED';
export type CtePayerRole = 'SENDER' | 'SHIPPER' | 'RECEIVER' | 'RECIPIENT' | 'OTHER';
export type ApportionMethod = 'VALUE' | 'WEIGHT' | 'QUANTITY' | 'MANUAL';
export type FreightMode = 'LANDED_COST' | 'STOCK_ADJUSTMENT';

export interface CteValidationCheck {
  check: string;
  outcome: 'PASS' | 'FAIL' | 'SKIPPED';
  blocking: boolean;
  code: string | null;
  message: string;
  details?: Record<string, unknown>;
}

export interface CteValidationReport {
  valid: boolean;
  blockingCodes: string[];
  warnings: string[];
  checks: CteValidationCheck[];
}

export interface Cte {
  id: string;
  filialId: string;
  accessKey: string;
  status: CteStatus;
  carrier: { document: string; name: string; stateRegistration: string | null; uf: string | null };
  series: string;
  number: string;
  issueDate: string;
  issuedAt: string;
  environment: 'PRODUCTION' | 'HOMOLOGATION';
  protocol: string | null;
  authorizedAt: string | null;
  payerRole: CtePayerRole;
  /** vTPrest. */
  serviceTotal: number;
  /** vRec: what the carrier receives. */
  receivable: number;
  icms: number;
  nfeCount: number;
  apportionment: { method: ApportionMethod; amount: number; recoverableIcms: number; soldShare: number; entryDate: string | null; apportionedAt: string | null } | null;
  supplierId: string | null;
  validation: { valid: boolean; blockingCodes: string[]; warnings: string[] };
  cancelledAt: string | null;
  cancelReason: string | null;
  version: number;
  createdAt: string;
  updatedAt: string;
}

export interface CteStageResult {
  created: boolean;
  cte: Cte;
  report: CteValidationReport;
}

export interface CtePreview {
  /** The parsed cteProc (ide, issuer, parties, payer, values, icms, cargo, nfeKeys, billing, protocol). */
  document: Record<string, unknown>;
  report: CteValidationReport;
  stored: Cte | null;
}

export interface CteAllocation {
  entryDocumentId: string;
  lineNumber: number;
  itemId: string;
  productId: string | null;
  mode: FreightMode;
  basis: number;
  /** The line's share of vTPrest. */
  share: number;
  /** The part of the CT-e's ICMS on that share credited (the line's class and the filial's regime admit it). */
  icmsCredit: number;
  /** What went onto the line: share − icmsCredit. */
  amount: number;
  quantityReceived: number;
  quantityInStock: number;
  absorbed: number;
  /** The part that belonged to goods already sold: reported, not posted. */
  soldShare: number;
  reversed: { amount: number; soldShare: number; at: string } | null;
}

export interface CteDetail extends Cte {
  document: Record<string, unknown>;
  report: CteValidationReport;
  /** The NF-e it carried, resolved to the filial's inbound records and live entry documents. */
  nfe: { accessKey: string; inbound: Record<string, unknown> | null; entryDocument: { id: string; filialId: string; status: EntryDocumentStatus; number: string; total: number; version: number } | null }[];
  allocations: CteAllocation[];
  payables: Payable[];
}

export interface FreightLine {
  itemId: string;
  lineNumber: number;
  productId: string | null;
  basis?: number;
  /** The line's share of vTPrest. */
  share?: number;
  /** Its part of the CT-e's ICMS, and what of it is credited. */
  icms?: number;
  icmsCredit?: number;
  /** Freight onto the line (net of the credited ICMS). */
  amount: number;
  mode?: FreightMode;
  unitCostBefore?: number;
  /** A draft's landed unit cost with the freight (what confirm posts). */
  unitCostAfter?: number;
  quantityReceived?: number;
  quantityInStock?: number;
  absorbed?: number;
  soldShare?: number;
  averageCostBefore?: number | null;
  averageCostAfter?: number | null;
}

export interface ApportionRequest {
  method?: ApportionMethod;
  /** WEIGHT: each line's gross weight; MANUAL: each line's share of vTPrest (they add up to it). */
  lines?: { itemId: string; weight?: DecimalInput; amount?: DecimalInput }[];
  entryDate?: string;
  ignoreUnbookedNfe?: boolean;
}

export interface CteProblem {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

interface ApportionPlan {
  method: ApportionMethod;
  taxRegime: string;
  freight: { serviceTotal: number; icms: number; recoverableIcms: number; amount: number };
  documents: { entryDocumentId: string; status: EntryDocumentStatus; number: string; accessKey: string | null; amount: number; lines: FreightLine[] }[];
  unbookedNfe: string[];
  soldShare: number;
  entryDate: string;
  warnings: CteProblem[];
}

export interface ApportionPreview extends ApportionPlan {
  cteId: string;
  status: CteStatus;
  version: number;
  payables: { number: number; dueDate: string; amount: number }[];
  blockingProblems: CteProblem[];
}

export interface ApportionResult extends ApportionPlan {
  cte: Cte;
  payables: Payable[];
}

export interface CteCancelResult {
  cteId: string;
  status: CteStatus;
  version: number;
  documents: { entryDocumentId: string; status: EntryDocumentStatus | null; lines: FreightLine[] }[];
  payables: Payable[];
  blockingProblems: CteProblem[];
}

export interface FindCtesQuery extends PageQuery {
  sort?: 'issueDate' | '-issueDate';
  status?: CteStatus;
  /** Carrier CNPJ prefix or name. */
  carrier?: string;
  issuedFrom?: string;
  issuedTo?: string;
  accessKey?: string;
  /** CT-e that carried this NF-e. */
  nfeKey?: string;
}
