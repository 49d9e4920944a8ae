import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** A payment taken for a counter sale; `change` is what went back to the customer from it (cash only). */
@Entity('sale_payment')
@Index('ix_sale_payment_order', ['companyId', 'salesOrderId'])
@Index('ix_sale_payment_session', ['companyId', 'cashSessionId'])
export class SalePayment {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'sales_order_id' })
  salesOrderId!: number;

  @IdColumn({ name: 'payment_method_id' })
  paymentMethodId!: number;

  @Column({ name: 'method_code', type: 'varchar', length: 30 })
  methodCode!: string;

  /** What the customer handed over with this method. */
  @AmountColumn()
  amount!: Dec;

  @AmountColumn({ name: 'change_given' })
  changeGiven!: Dec;

  /** The terminal's cash session the sale was made in (null: a counter without sessions). */
  @Column({ name: 'cash_session_id', type: 'int', nullable: true })
  cashSessionId!: number | null;

  /*
   * The payment's identification (NFC-e detPag/card; the acquirer's receivable): tpIntegra 1 TEF, 2 POS;
   * the card or Pix institution's CNPJ, tBand, cAut (the Pix endToEndId for a Pix), the NSU; CNPJPag/UFPag
   * where the payment was taken elsewhere.
   */
  @Column({ name: 'tp_integra', type: 'varchar', length: 1, nullable: true })
  tpIntegra!: string | null;

  @Column({ name: 'institution_cnpj', type: 'varchar', length: 14, nullable: true })
  institutionCnpj!: string | null;

  @Column({ name: 'card_brand', type: 'varchar', length: 2, nullable: true })
  cardBrand!: string | null;

  @Column({ name: 'authorization_code', type: 'varchar', length: 128, nullable: true })
  authorizationCode!: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  nsu!: string | null;

  @Column({ name: 'end_to_end_id', type: 'varchar', length: 32, nullable: true })
  endToEndId!: string | null;

  @Column({ name: 'pix_static', type: 'boolean', default: false })
  pixStatic!: boolean;

  @Column({ name: 'payer_cnpj', type: 'varchar', length: 14, nullable: true })
  payerCnpj!: string | null;

  @Column({ name: 'payer_uf', type: 'varchar', length: 2, nullable: true })
  payerUf!: string | null;

  @CreatedAtColumn()
  createdAt!: Date;
}
