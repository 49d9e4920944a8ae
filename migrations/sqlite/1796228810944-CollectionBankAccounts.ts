import { MigrationInterface, QueryRunner } from 'typeorm';

export class CollectionBankAccounts1796228810944 implements MigrationInterface {
  name = 'CollectionBankAccounts1796228810944';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "bank_account" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "name" varchar(60) NOT NULL,
                "bank_code" varchar(3) NOT NULL,
                "agency" varchar(4) NOT NULL,
                "agency_digit" varchar(1),
                "account" varchar(12) NOT NULL,
                "account_digit" varchar(1) NOT NULL,
                "carteira" varchar(3) NOT NULL,
                "beneficiary_code" varchar(20),
                "layout" varchar(8) NOT NULL,
                "payment_method_code" varchar(30) NOT NULL,
                "fine_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "interest_per_day_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "discount_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "discount_days" integer NOT NULL DEFAULT (0),
                "instructions" varchar(400),
                "protest_days" integer,
                "write_off_days" integer,
                "pix_key" varchar(77),
                "psp_code" varchar(30),
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_bank_account_filial" ON "bank_account" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "boleto" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "receivable_id" integer NOT NULL,
                "bank_code" varchar(3) NOT NULL,
                "sequence" integer NOT NULL,
                "nosso_numero" varchar(20) NOT NULL,
                "nosso_numero_dv" varchar(1) NOT NULL,
                "nosso_numero_printed" varchar(30) NOT NULL,
                "document_number" varchar(15) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "issue_date" date NOT NULL,
                "due_date" date NOT NULL,
                "barcode" varchar(44) NOT NULL,
                "digitable_line" varchar(47) NOT NULL,
                "fine_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "interest_per_day_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "discount_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount_date" date,
                "protest_days" integer,
                "write_off_days" integer,
                "status" varchar(24) NOT NULL,
                "refusal_reason" varchar(255),
                "review_reason" varchar(255),
                "paid_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "registered_at" datetime,
                "created_by" varchar(100) NOT NULL,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_boleto_account_status" ON "boleto" ("company_id", "bank_account_id", "status", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_boleto_receivable" ON "boleto" ("company_id", "receivable_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_boleto_nosso_numero" ON "boleto" ("company_id", "bank_account_id", "nosso_numero")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_receipt_receivable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_receipt_filial_date"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_receivable_receipt" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "receivable_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "receipt_date" date NOT NULL,
                "payment_method_id" integer NOT NULL,
                "payment_method_code" varchar(30) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "interest" varchar(17) NOT NULL DEFAULT ('0.00'),
                "fine" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "note" varchar(500),
                "created_by" varchar(100) NOT NULL,
                "reversed_at" datetime,
                "reversed_by" varchar(100),
                "reversal_reason" varchar(255),
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "bank_fee" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_date" date
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_receivable_receipt"(
                    "id",
                    "company_id",
                    "filial_id",
                    "receivable_id",
                    "status",
                    "receipt_date",
                    "payment_method_id",
                    "payment_method_code",
                    "amount",
                    "interest",
                    "fine",
                    "discount",
                    "total",
                    "note",
                    "created_by",
                    "reversed_at",
                    "reversed_by",
                    "reversal_reason",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "receivable_id",
                "status",
                "receipt_date",
                "payment_method_id",
                "payment_method_code",
                "amount",
                "interest",
                "fine",
                "discount",
                "total",
                "note",
                "created_by",
                "reversed_at",
                "reversed_by",
                "reversal_reason",
                "version",
                "created_at",
                "updated_at"
            FROM "receivable_receipt"
        `);
    await queryRunner.query(`
            DROP TABLE "receivable_receipt"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_receivable_receipt"
                RENAME TO "receivable_receipt"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_receipt_receivable" ON "receivable_receipt" ("company_id", "receivable_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_receipt_filial_date" ON "receivable_receipt" ("company_id", "filial_id", "receipt_date", "id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_receivable_receipt_filial_date"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_receipt_receivable"
        `);
    await queryRunner.query(`
            ALTER TABLE "receivable_receipt"
                RENAME TO "temporary_receivable_receipt"
        `);
    await queryRunner.query(`
            CREATE TABLE "receivable_receipt" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "receivable_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "receipt_date" date NOT NULL,
                "payment_method_id" integer NOT NULL,
                "payment_method_code" varchar(30) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "interest" varchar(17) NOT NULL DEFAULT ('0.00'),
                "fine" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "note" varchar(500),
                "created_by" varchar(100) NOT NULL,
                "reversed_at" datetime,
                "reversed_by" varchar(100),
                "reversal_reason" varchar(255),
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "receivable_receipt"(
                    "id",
                    "company_id",
                    "filial_id",
                    "receivable_id",
                    "status",
                    "receipt_date",
                    "payment_method_id",
                    "payment_method_code",
                    "amount",
                    "interest",
                    "fine",
                    "discount",
                    "total",
                    "note",
                    "created_by",
                    "reversed_at",
                    "reversed_by",
                    "reversal_reason",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "receivable_id",
                "status",
                "receipt_date",
                "payment_method_id",
                "payment_method_code",
                "amount",
                "interest",
                "fine",
                "discount",
                "total",
                "note",
                "created_by",
                "reversed_at",
                "reversed_by",
                "reversal_reason",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_receivable_receipt"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_receivable_receipt"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_receipt_filial_date" ON "receivable_receipt" ("company_id", "filial_id", "receipt_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_receipt_receivable" ON "receivable_receipt" ("company_id", "receivable_id", "id")
        `);
    await queryRunner.query(`
            DROP INDEX "ux_boleto_nosso_numero"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_boleto_receivable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_boleto_account_status"
        `);
    await queryRunner.query(`
            DROP TABLE "boleto"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_bank_account_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "bank_account"
        `);
  }
}
