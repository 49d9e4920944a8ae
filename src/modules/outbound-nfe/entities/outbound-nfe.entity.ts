import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { AmountColumn, BlobColumn, CreatedAtColumn, DateTimeColumn, IdColumn, JsonColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

export type OutboundNfeStatus = 'SIGNED' | 'SENT' | 'AUTHORIZED' | 'REJECTED' | 'DENIED' | 'CANCELLED' | 'VOIDED';
/** What a document issues for: billing (a fulfilment, an order) or a source another module owns (document-sources.ts). */
export type OutboundNfeSource = 'FULFILLMENT' | 'ORDER' | 'CUSTOMER_RETURN' | 'SUPPLIER_RETURN' | 'TRANSFER';
export type EmailStatus = 'NONE' | 'PENDING' | 'SENT' | 'FAILED';

/** What the document says, kept beside its XML for lists and the API (no re-parsing). */
export interface OutboundNfeSummary {
  recipientName: string | null;
  recipientDocument: string | null;
  recipientEmail: string | null;
  operationNature: string;
  itemCount: number;
  totals: Record<string, string>;
  installments: { number: string; dueDate: string; amount: string }[];
  additionalInfo: string;
  /** What the tax engine flagged and did not block (e.g. no Lei 12.741 table in force); absent on older documents. */
  warnings?: string[];
  /** tpNF and finNFe (absent on documents issued before devoluções: 1 and 1). */
  direction?: 0 | 1;
  purpose?: 1 | 2 | 3 | 4;
  /** NFref/refNFe keys. */
  references?: string[];
  /** The sales-order line of each det (nItem − 1), for devoluções of this document. */
  itemSources?: (number | null)[];
  /** What the issuing request asked (installments, payment, transport, notes): a rebuild uses it again. */
  input?: StoredIssueInput;
}

export interface StoredIssueInput {
  installments?: { dueDate: string; amount: string }[];
  paymentType?: string;
  transport?: {
    mode: 0 | 1 | 2 | 3 | 4 | 9;
    volumes?: { quantity: number; kind?: string | null; grossWeight?: string | null; netWeight?: string | null } | null;
  };
  notes?: string | null;
  finalConsumer?: boolean;
}

/**
 * An NF-e (55) this company issues. The signed XML is stored before anything is sent; `claim`
 * (the fulfilment or order it bills) is unique while the document lives, so one fulfilment never
 * has two documents in flight — a voided document releases it.
 */
@Entity('outbound_nfe')
@Index('uq_outbound_nfe_number', ['companyId', 'filialId', 'model', 'series', 'number'], { unique: true })
@Index('uq_outbound_nfe_key', ['companyId', 'accessKey'], { unique: true })
@Index('uq_outbound_nfe_claim', ['companyId', 'claim'], { unique: true })
@Index('ix_outbound_nfe_status', ['companyId', 'status', 'updatedAt'])
@Index('ix_outbound_nfe_filial', ['companyId', 'filialId', 'id'])
@Index('ix_outbound_nfe_contingency_of', ['companyId', 'contingencyOf'])
@Index('ix_outbound_nfe_delivery', ['status', 'emailStatus'])
export class OutboundNfe {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'series_id' })
  seriesId!: number;

  @Column({ type: 'int' })
  model!: number;

  @Column({ type: 'int' })
  series!: number;

  @Column({ type: 'int' })
  number!: number;

  @Column({ name: 'access_key', type: 'varchar', length: 44 })
  accessKey!: string;

  @Column({ type: 'varchar', length: 16 })
  source!: OutboundNfeSource;

  /** The owning module's id of a source other than billing (the return, supplier return or transfer); null for billing. */
  @Column({ name: 'source_id', type: 'int', nullable: true })
  sourceId!: number | null;

  @Column({ name: 'fulfillment_id', type: 'int', nullable: true })
  fulfillmentId!: number | null;

  /** The sale billed (billing) or returned (a customer return); null for sources without a sale. */
  @Column({ name: 'sales_order_id', type: 'int', nullable: true })
  salesOrderId!: number | null;

  @Column({ name: 'customer_id', type: 'int', nullable: true })
  customerId!: number | null;

  /** "F<fulfilmentId>" / "O<orderId>" / "CR<returnId>" / "SR<supplierReturnId>" / "TR<transferId>" while the document lives; null once voided or cancelled. */
  @Column({ type: 'varchar', length: 24, nullable: true })
  claim!: string | null;

  @Column({ type: 'varchar', length: 12 })
  status!: OutboundNfeStatus;

  /** tpEmis: 1 normal, 6 SVC-AN, 7 SVC-RS. */
  @Column({ name: 'emission_type', type: 'int', default: 1 })
  emissionType!: number;

  @Column({ name: 'contingency_reason', type: 'varchar', length: 256, nullable: true })
  contingencyReason!: string | null;

  /** dhEmi exactly as written in the XML. */
  @Column({ name: 'issued_at_text', type: 'varchar', length: 25 })
  issuedAtText!: string;

  @DateTimeColumn({ name: 'issued_at' })
  issuedAt!: Date;

  @Column({ name: 'random_code', type: 'varchar', length: 8 })
  randomCode!: string;

  @AmountColumn()
  total!: Dec;

  @JsonColumn()
  summary!: OutboundNfeSummary;

  /** The signed NFe (gzip), stored before it was first sent. */
  @BlobColumn({ name: 'signed_xml_gz' })
  signedXmlGz!: Buffer;

  /** nfeProc (NFe + protNFe), gzip; once authorized (or denied). */
  @BlobColumn({ name: 'proc_xml_gz', nullable: true })
  procXmlGz!: Buffer | null;

  @Column({ name: 'c_stat', type: 'varchar', length: 3, nullable: true })
  cStat!: string | null;

  @Column({ name: 'x_motivo', type: 'varchar', length: 255, nullable: true })
  xMotivo!: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  protocol!: string | null;

  @DateTimeColumn({ name: 'authorized_at', nullable: true })
  authorizedAt!: Date | null;

  @Column({ name: 'send_attempts', type: 'int', default: 0 })
  sendAttempts!: number;

  @DateTimeColumn({ name: 'last_sent_at', nullable: true })
  lastSentAt!: Date | null;

  /** The last exchange with the authority about this document that got no verdict: when, and what failed (null once it answered). */
  @DateTimeColumn({ name: 'last_attempt_at', nullable: true })
  lastAttemptAt!: Date | null;

  @Column({ name: 'last_attempt_error', type: 'varchar', length: 255, nullable: true })
  lastAttemptError!: string | null;

  /**
   * A contingency document issued under a new number because this sale's first attempt (this id) may
   * have reached the authority: the first attempt is consulted when the authority is back.
   */
  @Column({ name: 'contingency_of', type: 'int', nullable: true })
  contingencyOf!: number | null;

  /** The key and XML this number had before it was rebuilt in contingency (a 539 naming that key is settled by it). */
  @Column({ name: 'prior_access_key', type: 'varchar', length: 44, nullable: true })
  priorAccessKey!: string | null;

  @BlobColumn({ name: 'prior_xml_gz', nullable: true })
  priorXmlGz!: Buffer | null;

  @DateTimeColumn({ name: 'cancelled_at', nullable: true })
  cancelledAt!: Date | null;

  @Column({ name: 'cancel_protocol', type: 'varchar', length: 20, nullable: true })
  cancelProtocol!: string | null;

  /** Last carta de correção sequence registered (0: none). */
  @Column({ name: 'correction_sequence', type: 'int', default: 0 })
  correctionSequence!: number;

  @Column({ name: 'email_status', type: 'varchar', length: 10, default: 'NONE' })
  emailStatus!: EmailStatus;

  @Column({ name: 'email_to', type: 'varchar', length: 150, nullable: true })
  emailTo!: string | null;

  @Column({ name: 'email_attempts', type: 'int', default: 0 })
  emailAttempts!: number;

  @DateTimeColumn({ name: 'email_sent_at', nullable: true })
  emailSentAt!: Date | null;

  @Column({ name: 'email_error', type: 'varchar', length: 300, nullable: true })
  emailError!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  actor!: string | null;

  /** The Idempotency-Key of the request that issued it: its retry resumes this document. */
  @Column({ name: 'request_key', type: 'varchar', length: 255, nullable: true })
  requestKey!: string | null;

  /** Who is talking to the authority about this document (a request or the recovery pass), and until when. */
  @Column({ name: 'lease_owner', type: 'varchar', length: 80, nullable: true })
  leaseOwner!: string | null;

  @DateTimeColumn({ name: 'lease_until', nullable: true })
  leaseUntil!: Date | null;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
