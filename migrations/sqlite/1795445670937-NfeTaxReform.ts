import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfeTaxReform1795445670937 implements MigrationInterface {
  name = 'NfeTaxReform1795445670937';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_product"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_entry_document_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "product_id" integer,
                "review_status" varchar(10) NOT NULL,
                "supplier_product_code" varchar(60),
                "description" varchar(200) NOT NULL,
                "ncm" varchar(8),
                "cfop" varchar(4),
                "unit" varchar(6) NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "insurance" varchar(17) NOT NULL DEFAULT ('0.00'),
                "other_expenses" varchar(17) NOT NULL DEFAULT ('0.00'),
                "ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_st" varchar(17) NOT NULL DEFAULT ('0.00'),
                "landed_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "taxes" text NOT NULL,
                "conversion_factor" varchar(17) NOT NULL DEFAULT ('1.000000'),
                "stock_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "declared_description" varchar(200),
                "declared_unit" varchar(6),
                "declared_quantity" varchar(20),
                "declared_unit_price" varchar(23),
                "declared_ncm" varchar(8),
                "declared_cfop" varchar(4),
                "reform_taxes" text
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_entry_document_item"(
                    "id",
                    "company_id",
                    "entry_document_id",
                    "line_number",
                    "product_id",
                    "review_status",
                    "supplier_product_code",
                    "description",
                    "ncm",
                    "cfop",
                    "unit",
                    "quantity",
                    "unit_price",
                    "total",
                    "discount",
                    "freight",
                    "insurance",
                    "other_expenses",
                    "ipi",
                    "icms_st",
                    "landed_total",
                    "taxes",
                    "conversion_factor",
                    "stock_quantity",
                    "unit_cost",
                    "declared_description",
                    "declared_unit",
                    "declared_quantity",
                    "declared_unit_price",
                    "declared_ncm",
                    "declared_cfop"
                )
            SELECT "id",
                "company_id",
                "entry_document_id",
                "line_number",
                "product_id",
                "review_status",
                "supplier_product_code",
                "description",
                "ncm",
                "cfop",
                "unit",
                "quantity",
                "unit_price",
                "total",
                "discount",
                "freight",
                "insurance",
                "other_expenses",
                "ipi",
                "icms_st",
                "landed_total",
                "taxes",
                "conversion_factor",
                "stock_quantity",
                "unit_cost",
                "declared_description",
                "declared_unit",
                "declared_quantity",
                "declared_unit_price",
                "declared_ncm",
                "declared_cfop"
            FROM "entry_document_item"
        `);
    await queryRunner.query(`
            DROP TABLE "entry_document_item"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_entry_document_item"
                RENAME TO "entry_document_item"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_document" ON "entry_document_item" ("company_id", "entry_document_id", "line_number")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_product" ON "entry_document_item" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_entry_document_live_access_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_access_key"
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
                "live_access_key" varchar(44),
                "reform_taxes" text
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
                    "updated_at",
                    "live_access_key"
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
                "updated_at",
                "live_access_key"
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
            CREATE UNIQUE INDEX "uq_entry_document_live_access_key" ON "entry_document" ("company_id", "live_access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_access_key" ON "entry_document" ("company_id", "access_key")
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
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
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
            DROP INDEX "ix_entry_document_access_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_entry_document_live_access_key"
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "live_access_key" varchar(44)
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
                    "updated_at",
                    "live_access_key"
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
                "updated_at",
                "live_access_key"
            FROM "temporary_entry_document"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_entry_document"
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
            CREATE INDEX "ix_entry_document_access_key" ON "entry_document" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_entry_document_live_access_key" ON "entry_document" ("company_id", "live_access_key")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_product"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_document"
        `);
    await queryRunner.query(`
            ALTER TABLE "entry_document_item"
                RENAME TO "temporary_entry_document_item"
        `);
    await queryRunner.query(`
            CREATE TABLE "entry_document_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "product_id" integer,
                "review_status" varchar(10) NOT NULL,
                "supplier_product_code" varchar(60),
                "description" varchar(200) NOT NULL,
                "ncm" varchar(8),
                "cfop" varchar(4),
                "unit" varchar(6) NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "insurance" varchar(17) NOT NULL DEFAULT ('0.00'),
                "other_expenses" varchar(17) NOT NULL DEFAULT ('0.00'),
                "ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_st" varchar(17) NOT NULL DEFAULT ('0.00'),
                "landed_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "taxes" text NOT NULL,
                "conversion_factor" varchar(17) NOT NULL DEFAULT ('1.000000'),
                "stock_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "declared_description" varchar(200),
                "declared_unit" varchar(6),
                "declared_quantity" varchar(20),
                "declared_unit_price" varchar(23),
                "declared_ncm" varchar(8),
                "declared_cfop" varchar(4)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "entry_document_item"(
                    "id",
                    "company_id",
                    "entry_document_id",
                    "line_number",
                    "product_id",
                    "review_status",
                    "supplier_product_code",
                    "description",
                    "ncm",
                    "cfop",
                    "unit",
                    "quantity",
                    "unit_price",
                    "total",
                    "discount",
                    "freight",
                    "insurance",
                    "other_expenses",
                    "ipi",
                    "icms_st",
                    "landed_total",
                    "taxes",
                    "conversion_factor",
                    "stock_quantity",
                    "unit_cost",
                    "declared_description",
                    "declared_unit",
                    "declared_quantity",
                    "declared_unit_price",
                    "declared_ncm",
                    "declared_cfop"
                )
            SELECT "id",
                "company_id",
                "entry_document_id",
                "line_number",
                "product_id",
                "review_status",
                "supplier_product_code",
                "description",
                "ncm",
                "cfop",
                "unit",
                "quantity",
                "unit_price",
                "total",
                "discount",
                "freight",
                "insurance",
                "other_expenses",
                "ipi",
                "icms_st",
                "landed_total",
                "taxes",
                "conversion_factor",
                "stock_quantity",
                "unit_cost",
                "declared_description",
                "declared_unit",
                "declared_quantity",
                "declared_unit_price",
                "declared_ncm",
                "declared_cfop"
            FROM "temporary_entry_document_item"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_entry_document_item"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_product" ON "entry_document_item" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_document" ON "entry_document_item" ("company_id", "entry_document_id", "line_number")
        `);
  }
}
