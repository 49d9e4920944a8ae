import { MigrationInterface, QueryRunner } from 'typeorm';

export class PurchaseToPay1795442484820 implements MigrationInterface {
  name = 'PurchaseToPay1795442484820';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_entry_document_access_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "payable_payment" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "payable_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "payment_date" date NOT NULL,
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
            CREATE INDEX "ix_payable_payment_filial_date" ON "payable_payment" ("company_id", "filial_id", "payment_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_payment_payable" ON "payable_payment" ("company_id", "payable_id", "id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_filial_entry"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_filial_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_supplier_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_number"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_supplier"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_entry_document" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "origin" varchar(10) NOT NULL,
                "model" varchar(2) NOT NULL,
                "series" varchar(3) NOT NULL,
                "number" varchar(9) NOT NULL,
                "access_key" varchar(44),
                "issue_date" date NOT NULL,
                "entry_date" date NOT NULL,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "supplier_state_registration" varchar(20),
                "supplier_uf" varchar(2),
                "operation_nature" varchar(60),
                "notes" varchar(2000),
                "total_products" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_insurance" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_other_expenses" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_icms_st" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "expected_totals" text,
                "item_count" integer NOT NULL DEFAULT (0),
                "pending_item_count" integer NOT NULL DEFAULT (0),
                "cancel_reason" varchar(255),
                "confirmed_at" datetime,
                "cancelled_at" datetime,
                "nfe_cancelled_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "live_access_key" varchar(44)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_entry_document"(
                    "id",
                    "company_id",
                    "filial_id",
                    "status",
                    "origin",
                    "model",
                    "series",
                    "number",
                    "access_key",
                    "issue_date",
                    "entry_date",
                    "supplier_id",
                    "supplier_document",
                    "supplier_name",
                    "supplier_state_registration",
                    "supplier_uf",
                    "operation_nature",
                    "notes",
                    "total_products",
                    "total_freight",
                    "total_insurance",
                    "total_discount",
                    "total_other_expenses",
                    "total_ipi",
                    "total_icms_st",
                    "total",
                    "expected_totals",
                    "item_count",
                    "pending_item_count",
                    "cancel_reason",
                    "confirmed_at",
                    "cancelled_at",
                    "nfe_cancelled_at",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "status",
                "origin",
                "model",
                "series",
                "number",
                "access_key",
                "issue_date",
                "entry_date",
                "supplier_id",
                "supplier_document",
                "supplier_name",
                "supplier_state_registration",
                "supplier_uf",
                "operation_nature",
                "notes",
                "total_products",
                "total_freight",
                "total_insurance",
                "total_discount",
                "total_other_expenses",
                "total_ipi",
                "total_icms_st",
                "total",
                "expected_totals",
                "item_count",
                "pending_item_count",
                "cancel_reason",
                "confirmed_at",
                "cancelled_at",
                "nfe_cancelled_at",
                "version",
                "created_at",
                "updated_at"
            FROM "entry_document"
        `);
    await queryRunner.query(`
            DROP TABLE "entry_document"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_entry_document"
                RENAME TO "entry_document"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_filial_entry" ON "entry_document" ("company_id", "filial_id", "entry_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_filial_status" ON "entry_document" (
                "company_id",
                "filial_id",
                "status",
                "entry_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_supplier_document" ON "entry_document" (
                "company_id",
                "supplier_document",
                "status",
                "entry_date"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_number" ON "entry_document" ("company_id", "number")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_supplier" ON "entry_document" ("company_id", "supplier_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_company_cnpj"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_company" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "name" varchar(120) NOT NULL,
                "cnpj" varchar(14) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "purchase_quantity_tolerance_pct" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "purchase_price_tolerance_pct" varchar(9) NOT NULL DEFAULT ('2.0000'),
                "purchase_tolerance_mode" varchar(5) NOT NULL DEFAULT ('BLOCK'),
                "version" integer NOT NULL DEFAULT (1)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_company"(
                    "id",
                    "name",
                    "cnpj",
                    "active",
                    "created_at",
                    "purchase_quantity_tolerance_pct",
                    "purchase_price_tolerance_pct",
                    "purchase_tolerance_mode"
                )
            SELECT "id",
                "name",
                "cnpj",
                "active",
                "created_at",
                "purchase_quantity_tolerance_pct",
                "purchase_price_tolerance_pct",
                "purchase_tolerance_mode"
            FROM "company"
        `);
    await queryRunner.query(`
            DROP TABLE "company"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_company"
                RENAME TO "company"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_company_cnpj" ON "company" ("cnpj")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_filial_company_cnpj"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_filial" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "name" varchar(120) NOT NULL,
                "cnpj" varchar(14) NOT NULL,
                "state_registration" varchar(20),
                "uf" varchar(2) NOT NULL,
                "nfe_environment" varchar(12) NOT NULL DEFAULT ('PRODUCTION'),
                "allow_negative_stock" boolean NOT NULL DEFAULT (0),
                "auto_ciencia" boolean NOT NULL DEFAULT (1),
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "tax_regime" varchar(20) NOT NULL DEFAULT ('SIMPLES_NACIONAL'),
                "dfe_sync_enabled" boolean NOT NULL DEFAULT (0),
                "dfe_sync_interval_minutes" integer NOT NULL DEFAULT (60),
                "version" integer NOT NULL DEFAULT (1)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_filial"(
                    "id",
                    "company_id",
                    "name",
                    "cnpj",
                    "state_registration",
                    "uf",
                    "nfe_environment",
                    "allow_negative_stock",
                    "auto_ciencia",
                    "active",
                    "created_at",
                    "updated_at",
                    "tax_regime",
                    "dfe_sync_enabled",
                    "dfe_sync_interval_minutes"
                )
            SELECT "id",
                "company_id",
                "name",
                "cnpj",
                "state_registration",
                "uf",
                "nfe_environment",
                "allow_negative_stock",
                "auto_ciencia",
                "active",
                "created_at",
                "updated_at",
                "tax_regime",
                "dfe_sync_enabled",
                "dfe_sync_interval_minutes"
            FROM "filial"
        `);
    await queryRunner.query(`
            DROP TABLE "filial"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_filial"
                RENAME TO "filial"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_filial_company_cnpj" ON "filial" ("company_id", "cnpj")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_access_key" ON "entry_document" ("company_id", "access_key")
        `);
    // Documents not cancelled keep their key live (data only: the schema is the generated one).
    await queryRunner.query(`
            UPDATE "entry_document" SET "live_access_key" = "access_key" WHERE "status" <> 'CANCELLED'
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_entry_document_live_access_key" ON "entry_document" ("company_id", "live_access_key")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_entry_document_live_access_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_access_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_filial_company_cnpj"
        `);
    await queryRunner.query(`
            ALTER TABLE "filial"
                RENAME TO "temporary_filial"
        `);
    await queryRunner.query(`
            CREATE TABLE "filial" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "name" varchar(120) NOT NULL,
                "cnpj" varchar(14) NOT NULL,
                "state_registration" varchar(20),
                "uf" varchar(2) NOT NULL,
                "nfe_environment" varchar(12) NOT NULL DEFAULT ('PRODUCTION'),
                "allow_negative_stock" boolean NOT NULL DEFAULT (0),
                "auto_ciencia" boolean NOT NULL DEFAULT (1),
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "tax_regime" varchar(20) NOT NULL DEFAULT ('SIMPLES_NACIONAL'),
                "dfe_sync_enabled" boolean NOT NULL DEFAULT (0),
                "dfe_sync_interval_minutes" integer NOT NULL DEFAULT (60)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "filial"(
                    "id",
                    "company_id",
                    "name",
                    "cnpj",
                    "state_registration",
                    "uf",
                    "nfe_environment",
                    "allow_negative_stock",
                    "auto_ciencia",
                    "active",
                    "created_at",
                    "updated_at",
                    "tax_regime",
                    "dfe_sync_enabled",
                    "dfe_sync_interval_minutes"
                )
            SELECT "id",
                "company_id",
                "name",
                "cnpj",
                "state_registration",
                "uf",
                "nfe_environment",
                "allow_negative_stock",
                "auto_ciencia",
                "active",
                "created_at",
                "updated_at",
                "tax_regime",
                "dfe_sync_enabled",
                "dfe_sync_interval_minutes"
            FROM "temporary_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_filial"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_filial_company_cnpj" ON "filial" ("company_id", "cnpj")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_company_cnpj"
        `);
    await queryRunner.query(`
            ALTER TABLE "company"
                RENAME TO "temporary_company"
        `);
    await queryRunner.query(`
            CREATE TABLE "company" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "name" varchar(120) NOT NULL,
                "cnpj" varchar(14) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "purchase_quantity_tolerance_pct" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "purchase_price_tolerance_pct" varchar(9) NOT NULL DEFAULT ('2.0000'),
                "purchase_tolerance_mode" varchar(5) NOT NULL DEFAULT ('BLOCK')
            )
        `);
    await queryRunner.query(`
            INSERT INTO "company"(
                    "id",
                    "name",
                    "cnpj",
                    "active",
                    "created_at",
                    "purchase_quantity_tolerance_pct",
                    "purchase_price_tolerance_pct",
                    "purchase_tolerance_mode"
                )
            SELECT "id",
                "name",
                "cnpj",
                "active",
                "created_at",
                "purchase_quantity_tolerance_pct",
                "purchase_price_tolerance_pct",
                "purchase_tolerance_mode"
            FROM "temporary_company"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_company"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_company_cnpj" ON "company" ("cnpj")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_supplier"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_number"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_supplier_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_filial_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_filial_entry"
        `);
    await queryRunner.query(`
            ALTER TABLE "entry_document"
                RENAME TO "temporary_entry_document"
        `);
    await queryRunner.query(`
            CREATE TABLE "entry_document" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "origin" varchar(10) NOT NULL,
                "model" varchar(2) NOT NULL,
                "series" varchar(3) NOT NULL,
                "number" varchar(9) NOT NULL,
                "access_key" varchar(44),
                "issue_date" date NOT NULL,
                "entry_date" date NOT NULL,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "supplier_state_registration" varchar(20),
                "supplier_uf" varchar(2),
                "operation_nature" varchar(60),
                "notes" varchar(2000),
                "total_products" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_insurance" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_other_expenses" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_icms_st" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "expected_totals" text,
                "item_count" integer NOT NULL DEFAULT (0),
                "pending_item_count" integer NOT NULL DEFAULT (0),
                "cancel_reason" varchar(255),
                "confirmed_at" datetime,
                "cancelled_at" datetime,
                "nfe_cancelled_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "entry_document"(
                    "id",
                    "company_id",
                    "filial_id",
                    "status",
                    "origin",
                    "model",
                    "series",
                    "number",
                    "access_key",
                    "issue_date",
                    "entry_date",
                    "supplier_id",
                    "supplier_document",
                    "supplier_name",
                    "supplier_state_registration",
                    "supplier_uf",
                    "operation_nature",
                    "notes",
                    "total_products",
                    "total_freight",
                    "total_insurance",
                    "total_discount",
                    "total_other_expenses",
                    "total_ipi",
                    "total_icms_st",
                    "total",
                    "expected_totals",
                    "item_count",
                    "pending_item_count",
                    "cancel_reason",
                    "confirmed_at",
                    "cancelled_at",
                    "nfe_cancelled_at",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "status",
                "origin",
                "model",
                "series",
                "number",
                "access_key",
                "issue_date",
                "entry_date",
                "supplier_id",
                "supplier_document",
                "supplier_name",
                "supplier_state_registration",
                "supplier_uf",
                "operation_nature",
                "notes",
                "total_products",
                "total_freight",
                "total_insurance",
                "total_discount",
                "total_other_expenses",
                "total_ipi",
                "total_icms_st",
                "total",
                "expected_totals",
                "item_count",
                "pending_item_count",
                "cancel_reason",
                "confirmed_at",
                "cancelled_at",
                "nfe_cancelled_at",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_entry_document"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_entry_document"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_supplier" ON "entry_document" ("company_id", "supplier_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_number" ON "entry_document" ("company_id", "number")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_supplier_document" ON "entry_document" (
                "company_id",
                "supplier_document",
                "status",
                "entry_date"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_filial_status" ON "entry_document" (
                "company_id",
                "filial_id",
                "status",
                "entry_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_filial_entry" ON "entry_document" ("company_id", "filial_id", "entry_date", "id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_payment_payable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_payment_filial_date"
        `);
    await queryRunner.query(`
            DROP TABLE "payable_payment"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_entry_document_access_key" ON "entry_document" ("company_id", "access_key")
        `);
  }
}
