import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn } from '../../../core/db/columns';

export type PaymentKind = 'CASH' | 'CREDIT_CARD' | 'DEBIT_CARD' | 'PIX' | 'BANK_SLIP' | 'STORE_CREDIT' | 'OTHER';

@Entity('payment_method')
@Index('uq_payment_method_company_code', ['companyId', 'code'], { unique: true })
export class PaymentMethod {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  /** Tenant-chosen code used in payloads (e.g. "CASH", "PIX"). */
  @Column({ type: 'varchar', length: 30 })
  code!: string;

  @Column({ type: 'varchar', length: 80 })
  name!: string;

  @Column({ type: 'varchar', length: 20 })
  kind!: PaymentKind;

  /** Only cash gives change; other methods may not exceed what is owed. */
  @Column({ name: 'gives_change', type: 'boolean', default: false })
  givesChange!: boolean;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @CreatedAtColumn()
  createdAt!: Date;
}
