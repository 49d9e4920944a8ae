import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

export type NfeEnvironment = 'PRODUCTION' | 'HOMOLOGATION';

/** A branch of a company: own CNPJ, IE, UF, NF-e environment and (later) certificate. */
@Entity('filial')
@Index('uq_filial_company_cnpj', ['companyId', 'cnpj'], { unique: true })
export class Filial {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 120 })
  name!: string;

  /** CNPJ, or CPF for a rural producer (11 digits). */
  @Column({ type: 'varchar', length: 14 })
  cnpj!: string;

  @Column({ name: 'state_registration', type: 'varchar', length: 20, nullable: true })
  stateRegistration!: string | null;

  @Column({ type: 'varchar', length: 2 })
  uf!: string;

  @Column({ name: 'nfe_environment', type: 'varchar', length: 12, default: 'PRODUCTION' })
  nfeEnvironment!: NfeEnvironment;

  @Column({ name: 'allow_negative_stock', type: 'boolean', default: false })
  allowNegativeStock!: boolean;

  /** Send CIENCIA automatically before downloading a summary's full XML. */
  @Column({ name: 'auto_ciencia', type: 'boolean', default: true })
  autoCiencia!: boolean;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
