import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { AmountColumn, CreatedAtColumn, IdColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';

/** A customer return of goods sold in a filial (SPEC §8). `return` is an SQL keyword, hence the name. */
@Entity('sales_return')
@Index('uq_sales_return_code', ['companyId', 'code'], { unique: true })
@Index('ix_sales_return_filial', ['companyId', 'filialId', 'id'])
@Index('ix_sales_return_customer', ['companyId', 'filialId', 'customerId', 'id'])
@Index('uq_sales_return_imported_key', ['companyId', 'importedAccessKey'], { unique: true })
@Index('uq_sales_return_request_key', ['companyId', 'requestKey'], { unique: true })
@Index('ix_sales_return_origin_status', ['originStatus', 'id'])
export class SalesReturn {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** Sequential per company (sequence 'return-code'). */
  @IdColumn()
  code!: number;

  @IdColumn({ name: 'customer_id' })
  customerId!: number;

  @Column({ type: 'varchar', length: 500 })
  reason!: string;

  /** Payment method code the refund goes out by. */
  @Column({ name: 'refund_method', type: 'varchar', length: 30 })
  refundMethod!: string;

  @AmountColumn({ name: 'refund_amount' })
  refundAmount!: Dec;

  @Column({ type: 'varchar', length: 100 })
  actor!: string;

  @CreatedAtColumn()
  createdAt!: Date;

  /** COUNTER: registered here (our entry devolução is issued); IMPORTED: the customer's own devolução NF-e, imported. */
  @Column({ type: 'varchar', length: 10, default: 'COUNTER' })
  origin!: 'COUNTER' | 'IMPORTED';

  /** The customer's devolução key when IMPORTED (one return per imported document). */
  @Column({ name: 'imported_access_key', type: 'varchar', length: 44, nullable: true })
  importedAccessKey!: string | null;

  /**
   * RESOLVED: the returned units were traced to the sale's documents (or there are none to trace to);
   * PENDING: the sale's NF-e/NFC-e was not authorized yet when the return was registered: the units are
   * traced, and our devolução issued, once it is (devolution.service.ts); TRACED: traced, the devolução
   * not stored yet (the devolution pass issues it).
   */
  @Column({ name: 'origin_status', type: 'varchar', length: 10, default: 'RESOLVED' })
  originStatus!: 'RESOLVED' | 'PENDING' | 'TRACED';

  /** The Idempotency-Key of the request that registered it: a retry after a crash finds the return. */
  @Column({ name: 'request_key', type: 'varchar', length: 255, nullable: true })
  requestKey!: string | null;
}
