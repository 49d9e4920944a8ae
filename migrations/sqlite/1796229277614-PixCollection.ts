import { MigrationInterface, QueryRunner } from 'typeorm';

export class PixCollection1796229277614 implements MigrationInterface {
  name = 'PixCollection1796229277614';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "pix_charge" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "receivable_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "kind" varchar(10) NOT NULL,
                "txid" varchar(35) NOT NULL,
                "status" varchar(10) NOT NULL,
                "pix_key" varchar(77) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "due_date" date,
                "validity" integer NOT NULL,
                "fine_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "interest_per_day_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "discount_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount_date" date,
                "location" varchar(255),
                "br_code" varchar(512),
                "refusal_reason" varchar(500),
                "created_by" varchar(100) NOT NULL,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_pix_charge_receivable" ON "pix_charge" ("company_id", "receivable_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_pix_charge_txid" ON "pix_charge" ("company_id", "txid")
        `);
    await queryRunner.query(`
            CREATE TABLE "pix_payment" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "end_to_end_id" varchar(32) NOT NULL,
                "txid" varchar(35),
                "charge_id" integer,
                "receivable_id" integer,
                "receipt_id" integer,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "original_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "interest" varchar(17) NOT NULL DEFAULT ('0.00'),
                "fine" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "refunded_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "paid_at" datetime NOT NULL,
                "status" varchar(10) NOT NULL,
                "review_reason" varchar(40),
                "payer_info" varchar(140),
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_pix_payment_filial_status" ON "pix_payment" ("company_id", "filial_id", "status", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_pix_payment_charge" ON "pix_payment" ("company_id", "charge_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_pix_payment_e2e" ON "pix_payment" ("company_id", "end_to_end_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "pix_psp_connection" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "base_url" varchar(255) NOT NULL,
                "token_url" varchar(255),
                "client_id" varchar(255) NOT NULL,
                "client_secret_sealed" varchar(1024) NOT NULL,
                "payment_method_code" varchar(30) NOT NULL,
                "webhook_secret_hash" varchar(64) NOT NULL,
                "webhook_url" varchar(255),
                "webhook_registered_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_pix_psp_connection_account" ON "pix_psp_connection" ("company_id", "bank_account_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "pix_refund" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "payment_id" integer NOT NULL,
                "refund_id" varchar(35) NOT NULL,
                "rtr_id" varchar(32),
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(10) NOT NULL,
                "reason" varchar(140) NOT NULL,
                "failure_reason" varchar(255),
                "returned_at" datetime,
                "created_by" varchar(100) NOT NULL,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_pix_refund_payment" ON "pix_refund" ("company_id", "payment_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_pix_refund_id" ON "pix_refund" ("company_id", "refund_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ux_pix_refund_id"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_pix_refund_payment"
        `);
    await queryRunner.query(`
            DROP TABLE "pix_refund"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_pix_psp_connection_account"
        `);
    await queryRunner.query(`
            DROP TABLE "pix_psp_connection"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_pix_payment_e2e"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_pix_payment_charge"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_pix_payment_filial_status"
        `);
    await queryRunner.query(`
            DROP TABLE "pix_payment"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_pix_charge_txid"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_pix_charge_receivable"
        `);
    await queryRunner.query(`
            DROP TABLE "pix_charge"
        `);
  }
}
