import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import type { Dec } from '../../../core/decimal';

export type NfeEnvironment = 'PRODUCTION' | 'HOMOLOGATION';
export type TaxRegime = 'SIMPLES_NACIONAL' | 'LUCRO_PRESUMIDO' | 'LUCRO_REAL';
export const TAX_REGIMES: readonly TaxRegime[] = ['SIMPLES_NACIONAL', 'LUCRO_PRESUMIDO', 'LUCRO_REAL'];

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

  /**
   * Homologation only: an NF-e uploaded by hand may be confirmed without its key consulted at the
   * authority (SPEC §2). Refused for a PRODUCTION filial (settings.service.ts).
   */
  @Column({ name: 'allow_unverified_uploads', type: 'boolean', default: false })
  allowUnverifiedUploads!: boolean;

  /** Send CIENCIA automatically before downloading a summary's full XML. */
  @Column({ name: 'auto_ciencia', type: 'boolean', default: true })
  autoCiencia!: boolean;

  /** Decides which taxes of a purchase are credits rather than cost (SPEC §2 landed cost). */
  @Column({ name: 'tax_regime', type: 'varchar', length: 20, default: 'SIMPLES_NACIONAL' })
  taxRegime!: TaxRegime;

  /** Scheduled DF-e sync of this filial's CNPJ (SPEC §1, §4). */
  @Column({ name: 'dfe_sync_enabled', type: 'boolean', default: false })
  dfeSyncEnabled!: boolean;

  /** Minutes between scheduled syncs; at least 60 (the authority's own pace). */
  @Column({ name: 'dfe_sync_interval_minutes', type: 'int', default: 60 })
  dfeSyncIntervalMinutes!: number;

  /* Fiscal data for issuing documents (SPEC §1, §12). */

  @Column({ name: 'trade_name', type: 'varchar', length: 60, nullable: true })
  tradeName!: string | null;

  @Column({ name: 'address_street', type: 'varchar', length: 60, nullable: true })
  addressStreet!: string | null;

  @Column({ name: 'address_number', type: 'varchar', length: 60, nullable: true })
  addressNumber!: string | null;

  @Column({ name: 'address_complement', type: 'varchar', length: 60, nullable: true })
  addressComplement!: string | null;

  @Column({ name: 'address_district', type: 'varchar', length: 60, nullable: true })
  addressDistrict!: string | null;

  /** 7-digit IBGE code (cMun) in the filial's UF. */
  @Column({ name: 'municipality_code', type: 'varchar', length: 7, nullable: true })
  municipalityCode!: string | null;

  @Column({ name: 'municipality_name', type: 'varchar', length: 60, nullable: true })
  municipalityName!: string | null;

  @Column({ name: 'postal_code', type: 'varchar', length: 8, nullable: true })
  postalCode!: string | null;

  @Column({ type: 'varchar', length: 14, nullable: true })
  phone!: string | null;

  /** CNAE fiscal (7 digits). */
  @Column({ type: 'varchar', length: 7, nullable: true })
  cnae!: string | null;

  /** A Simples Nacional filial whose revenue exceeded the sublimit (CRT 2). */
  @Column({ name: 'simples_excess_sublimit', type: 'boolean', default: false })
  simplesExcessSublimit!: boolean;

  /** pCredSN: the ICMS credit a Simples filial passes on a sale to a contributor (LC 123/2006 art. 23). */
  @DecimalColumn(7, 4, { name: 'simples_credit_rate', nullable: true })
  simplesCreditRate!: Dec | null;

  /** Manufactures (IPI taxpayer): its outbound documents carry the IPI group. */
  @Column({ type: 'boolean', default: false })
  industrial!: boolean;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** Optimistic lock of the settings (PATCH /settings/filial/:filialId). */
  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
