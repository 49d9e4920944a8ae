import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

@Entity('customer')
@Index('ix_customer_company_name', ['companyId', 'searchName'])
@Index('ix_customer_company_trade', ['companyId', 'searchTradeName'])
@Index('ix_customer_company_document', ['companyId', 'document'])
export class Customer {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @Column({ type: 'varchar', length: 150 })
  name!: string;

  @Column({ name: 'trade_name', type: 'varchar', length: 150, nullable: true })
  tradeName!: string | null;

  @Column({ name: 'search_name', type: 'varchar', length: 150 })
  searchName!: string;

  @Column({ name: 'search_trade_name', type: 'varchar', length: 150, nullable: true })
  searchTradeName!: string | null;

  /** CPF (11) or CNPJ (14) digits; null for the anonymous counter customer. */
  @Column({ type: 'varchar', length: 14, nullable: true })
  document!: string | null;

  @Column({ type: 'varchar', length: 150, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 20, nullable: true })
  phone!: string | null;

  /* Fiscal data for issuing documents (SPEC §1, §12). */

  /** PF, PJ or FOREIGN; null → derived from the document (11 → PF, 14 → PJ). */
  @Column({ name: 'person_type', type: 'varchar', length: 8, nullable: true })
  personType!: 'PF' | 'PJ' | 'FOREIGN' | null;

  /** indIEDest: 1 contributor, 2 exempt contributor, 9 non-contributor. */
  @Column({ name: 'ie_indicator', type: 'int', default: 9 })
  ieIndicator!: 1 | 2 | 9;

  @Column({ name: 'state_registration', type: 'varchar', length: 14, nullable: true })
  stateRegistration!: string | null;

  /**
   * indFinal of its documents: true a final consumer (IPI in the ICMS base, CF art. 155 §2 XI), false
   * a buyer for resale or industrialisation; null → from the IE (a contributor, ieIndicator 1, is not final).
   */
  @Column({ name: 'final_consumer', type: 'boolean', nullable: true })
  finalConsumer!: boolean | null;

  @Column({ name: 'address_street', type: 'varchar', length: 60, nullable: true })
  addressStreet!: string | null;

  @Column({ name: 'address_number', type: 'varchar', length: 60, nullable: true })
  addressNumber!: string | null;

  @Column({ name: 'address_complement', type: 'varchar', length: 60, nullable: true })
  addressComplement!: string | null;

  @Column({ name: 'address_district', type: 'varchar', length: 60, nullable: true })
  addressDistrict!: string | null;

  /** 7-digit IBGE code (cMun); its first two digits are the UF's. */
  @Column({ name: 'municipality_code', type: 'varchar', length: 7, nullable: true })
  municipalityCode!: string | null;

  @Column({ name: 'municipality_name', type: 'varchar', length: 60, nullable: true })
  municipalityName!: string | null;

  @Column({ type: 'varchar', length: 2, nullable: true })
  uf!: string | null;

  @Column({ name: 'postal_code', type: 'varchar', length: 8, nullable: true })
  postalCode!: string | null;

  /** cPais (BACEN), '1058' Brazil. */
  @Column({ name: 'country_code', type: 'varchar', length: 4, default: '1058' })
  countryCode!: string;

  @Column({ name: 'country_name', type: 'varchar', length: 60, default: 'BRASIL' })
  countryName!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @VersionColumn({ type: 'int' })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
