import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, DateTimeColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

/**
 * How a bank account reaches its PSP's API Pix (docs/decisions/collection-pix.md): the API's base URL
 * and OAuth2 client credentials (the secret sealed, AES-256-GCM, like the A1 certificate), the
 * payment-method code its receipts take, and the webhook: the URL registered at the PSP and the hash
 * of the shared secret each callback must carry (`x-pix-webhook-secret`). One per bank account.
 */
@Entity('pix_psp_connection')
@Index('ux_pix_psp_connection_account', ['companyId', 'bankAccountId'], { unique: true })
export class PixPspConnection {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  @IdColumn({ name: 'bank_account_id' })
  bankAccountId!: number;

  @Column({ name: 'base_url', type: 'varchar', length: 255 })
  baseUrl!: string;

  @Column({ name: 'token_url', type: 'varchar', length: 255, nullable: true })
  tokenUrl!: string | null;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  /** base64 of the sealed client secret (binding `pix-psp:<companyId>:<bankAccountId>`). */
  @Column({ name: 'client_secret_sealed', type: 'varchar', length: 1024 })
  clientSecretSealed!: string;

  /** The tenant's payment-method code of the receipts its Pix become (e.g. PIX). */
  @Column({ name: 'payment_method_code', type: 'varchar', length: 30 })
  paymentMethodCode!: string;

  /** sha256 (hex) of the webhook's shared secret. */
  @Column({ name: 'webhook_secret_hash', type: 'varchar', length: 64 })
  webhookSecretHash!: string;

  /** The URL registered at the PSP for the account's key (PUT /webhook/{chave}); null: none registered. */
  @Column({ name: 'webhook_url', type: 'varchar', length: 255, nullable: true })
  webhookUrl!: string | null;

  @DateTimeColumn({ name: 'webhook_registered_at', nullable: true })
  webhookRegisteredAt!: Date | null;

  @Column({ type: 'int', default: 1 })
  version!: number;

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
