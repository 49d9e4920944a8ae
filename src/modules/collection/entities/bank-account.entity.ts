import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DecimalColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';
import { Dec } from '../../../core/decimal';
import type { BankCode, CnabLayout } from '../banks/banks';

/**
 * A filial's collection account at a bank (SPEC §14): where its boletos are registered (agência,
 * conta, carteira, convênio / código do beneficiário, CNAB layout) with the defaults each title takes
 * (fine, interest per day, discount, instructions, protest and write-off days), and the Pix key and
 * PSP Pix charges use. The beneficiary is the filial (its CNPJ and name). The next nosso número and
 * the next remessa number are per-account counters of core/sequence (`nossoNumeroSequence`,
 * `remittanceSequence`): a value taken is never handed out again.
 */
@Entity('bank_account')
@Index('ix_bank_account_filial', ['companyId', 'filialId', 'id'])
export class BankAccount {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @Column({ type: 'varchar', length: 60 })
  name!: string;

  @Column({ name: 'bank_code', type: 'varchar', length: 3 })
  bankCode!: BankCode;

  @Column({ type: 'varchar', length: 4 })
  agency!: string;

  @Column({ name: 'agency_digit', type: 'varchar', length: 1, nullable: true })
  agencyDigit!: string | null;

  @Column({ type: 'varchar', length: 12 })
  account!: string;

  @Column({ name: 'account_digit', type: 'varchar', length: 1 })
  accountDigit!: string;

  @Column({ type: 'varchar', length: 3 })
  carteira!: string;

  /** Convênio (BB), código do beneficiário (Santander, Caixa, Sicoob) or código da empresa (Bradesco, Itaú). */
  @Column({ name: 'beneficiary_code', type: 'varchar', length: 20, nullable: true })
  beneficiaryCode!: string | null;

  /** Banco do Brasil's variação da carteira (3 digits, assigned with the convênio): its CNAB 400 (CBR641) carries it at 92–94. */
  @Column({ name: 'carteira_variation', type: 'varchar', length: 3, nullable: true })
  carteiraVariation!: string | null;

  /** Santander's código de transmissão (20 digits, assigned by the bank) for its CNAB 400; null: derived from agência, código do beneficiário and conta. */
  @Column({ name: 'transmission_code', type: 'varchar', length: 20, nullable: true })
  transmissionCode!: string | null;

  @Column({ type: 'varchar', length: 8 })
  layout!: CnabLayout;

  /** The tenant's payment-method code the receipts of this account's titles are recorded under (e.g. BOLETO). */
  @Column({ name: 'payment_method_code', type: 'varchar', length: 30 })
  paymentMethodCode!: string;

  /** Multa: percent of the title's value, charged once after the due date. */
  @DecimalColumn(7, 4, { name: 'fine_percent', default: '0.0000' })
  finePercent!: Dec;

  /** Juros de mora: percent of the title's value per day late. */
  @DecimalColumn(7, 4, { name: 'interest_per_day_percent', default: '0.0000' })
  interestPerDayPercent!: Dec;

  /** Desconto: percent of the value granted when paid up to `discountDays` days before the due date. */
  @DecimalColumn(7, 4, { name: 'discount_percent', default: '0.0000' })
  discountPercent!: Dec;

  @Column({ name: 'discount_days', type: 'int', default: 0 })
  discountDays!: number;

  /** Lines printed in the boleto's instructions (at most 4, 80 characters each). */
  @Column({ type: 'varchar', length: 400, nullable: true })
  instructions!: string | null;

  /** Protest after this many days past due (null: no protest). */
  @Column({ name: 'protest_days', type: 'int', nullable: true })
  protestDays!: number | null;

  /** The bank writes the title off (baixa/devolução) this many days past due (null: the bank's default). */
  @Column({ name: 'write_off_days', type: 'int', nullable: true })
  writeOffDays!: number | null;

  /** The account's Pix key (CPF/CNPJ, e-mail, phone +55…, or a random key), for Pix charges and the bolePix QR. */
  @Column({ name: 'pix_key', type: 'varchar', length: 77, nullable: true })
  pixKey!: string | null;

  /** The PSP adapter that serves the key's Pix API (null: no dynamic Pix). */
  @Column({ name: 'psp_code', type: 'varchar', length: 30, nullable: true })
  pspCode!: string | null;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}

/** The core/sequence counter of an account's nosso número. */
export const nossoNumeroSequence = (accountId: number) => `collection.nosso-numero.${accountId}`;
/** The core/sequence counter of an account's remessa file numbers. */
export const remittanceSequence = (accountId: number) => `collection.remittance.${accountId}`;
