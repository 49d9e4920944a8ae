import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { OperationClass } from '../fiscal/fiscal.types';

/**
 * A company's rule for booking inbound lines: the issuer's CFOP — for every line, for an NCM prefix or
 * for one product — gives the entry CFOP (and, where that CFOP names no operation, the class). The most
 * specific rule wins; without one, the default table does (fiscal/cfop-table.ts).
 */
@Entity('entry_cfop_rule')
// One rule per scope: `scope_key` is issuerCfop|ncm|productId (empty parts for "any"), unique per company.
@Index('uq_entry_cfop_rule_scope', ['companyId', 'scopeKey'], { unique: true })
@Index('ix_entry_cfop_rule_issuer', ['companyId', 'issuerCfop'])
export class EntryCfopRule {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ name: 'issuer_cfop', type: 'varchar', length: 4 })
  issuerCfop!: string;

  /** An NCM prefix of 2 to 8 digits, or null for any. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  ncm!: string | null;

  @IdColumn({ name: 'product_id', nullable: true })
  productId!: number | null;

  @Column({ name: 'scope_key', type: 'varchar', length: 40 })
  scopeKey!: string;

  @Column({ name: 'entry_cfop', type: 'varchar', length: 4 })
  entryCfop!: string;

  @Column({ name: 'operation_class', type: 'varchar', length: 30, nullable: true })
  operationClass!: OperationClass | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
