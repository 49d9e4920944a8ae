import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, DateColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

/**
 * ICMS-ST between a pair of states for goods (issue 45 row 5): the protocol or convênio (or the UF's own
 * law inside a UF) that makes the seller in `originUf` the substitute for sales into `destinationUf`
 * of the goods of an NCM (prefix, 2 to 8 digits) and, when given, a CEST (Convênio ICMS 142/2018), with
 * its original MVA. A rule with stMode AGREEMENT applies ST only where one of these is in force: no
 * agreement, no ST (LC 87/1996 art. 9: ST between states needs an agreement between them).
 */
@Entity('fiscal_st_agreement')
@Index('uq_fiscal_st_agreement_key', ['companyId', 'originUf', 'destinationUf', 'ncmPrefix', 'cest', 'validFrom'], { unique: true })
export class StAgreement {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ name: 'origin_uf', type: 'varchar', length: 2 })
  originUf!: string;

  @Column({ name: 'destination_uf', type: 'varchar', length: 2 })
  destinationUf!: string;

  /** The NCM or its first digits (chapter, heading…): the longest prefix that matches wins. */
  @Column({ name: 'ncm_prefix', type: 'varchar', length: 8 })
  ncmPrefix!: string;

  /** CEST (7 digits); '' → every CEST of the NCM. A match by CEST wins over one by NCM alone. */
  @Column({ type: 'varchar', length: 7, default: '' })
  cest!: string;

  /** The original MVA (percent); between states the engine adjusts it to the rates' gap. */
  @DecimalColumn(7, 4)
  mva!: Dec;

  /** The destination's internal rate for these goods when it differs from the UF table's (percent); null → the table's. */
  @DecimalColumn(7, 4, { name: 'destination_internal_rate', nullable: true })
  destinationInternalRate!: Dec | null;

  @DateColumn({ name: 'valid_from' })
  validFrom!: string;

  @DateColumn({ name: 'valid_to', nullable: true })
  validTo!: string | null;

  /** The act (e.g. "Protocolo ICMS 11/1991", "Convênio ICMS 142/2018 Anexo III"). */
  @Column({ type: 'varchar', length: 200 })
  source!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
