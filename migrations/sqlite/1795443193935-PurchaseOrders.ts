import { MigrationInterface, QueryRunner } from "typeorm";

export class PurchaseOrders1795443193935 implements MigrationInterface {
    name = 'PurchaseOrders1795443193935'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            CREATE TABLE "purchase_order_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "purchase_order_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "product_id" integer NOT NULL,
                "description" varchar(200) NOT NULL,
                "unit" varchar(6) NOT NULL,
                "supplier_product_code" varchar(60),
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "expected_date" date,
                "received_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "cancelled_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "is_open" boolean NOT NULL DEFAULT (1)
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_item_product" ON "purchase_order_item" ("company_id", "product_id", "is_open")
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_item_order" ON "purchase_order_item" ("company_id", "purchase_order_id", "line_number")
        `);
        await queryRunner.query(`
            CREATE TABLE "purchase_order_receipt" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "purchase_order_id" integer NOT NULL,
                "purchase_order_item_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "entry_document_item_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "document_number" varchar(9) NOT NULL,
                "document_series" varchar(3) NOT NULL,
                "access_key" varchar(44),
                "issue_date" date NOT NULL,
                "entry_date" date NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "invoice_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "invoice_unit" varchar(6) NOT NULL,
                "conversion_factor" varchar(17) NOT NULL DEFAULT ('1.000000'),
                "unit_price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "order_unit_price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "status" varchar(10) NOT NULL,
                "received_at" datetime NOT NULL,
                "cancelled_at" datetime
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_receipt_document" ON "purchase_order_receipt" ("company_id", "entry_document_id", "status")
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_receipt_order" ON "purchase_order_receipt" ("company_id", "purchase_order_id", "id")
        `);
        await queryRunner.query(`
            CREATE TABLE "purchase_order" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "code" integer NOT NULL,
                "status" varchar(20) NOT NULL,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "expected_date" date,
                "payment_installments" integer,
                "payment_days" integer,
                "freight_terms" varchar(12),
                "notes" varchar(1000),
                "total_products" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "approved_at" datetime,
                "approved_by" varchar(100),
                "cancelled_at" datetime,
                "cancel_reason" varchar(500),
                "closed_at" datetime,
                "close_reason" varchar(500),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_supplier" ON "purchase_order" ("company_id", "supplier_id")
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_filial_supplier" ON "purchase_order" (
                "company_id",
                "filial_id",
                "supplier_document",
                "status",
                "code"
            )
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_filial_status" ON "purchase_order" ("company_id", "filial_id", "status", "code")
        `);
        await queryRunner.query(`
            CREATE INDEX "ix_purchase_order_filial_code" ON "purchase_order" ("company_id", "filial_id", "code")
        `);
        await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_purchase_order_company_code" ON "purchase_order" ("company_id", "code")
        `);
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
                "purchase_order_item_id" integer
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
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
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
        await queryRunner.query(`
            DROP INDEX "uq_purchase_order_company_code"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_filial_code"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_filial_status"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_filial_supplier"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_supplier"
        `);
        await queryRunner.query(`
            DROP TABLE "purchase_order"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_receipt_order"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_receipt_document"
        `);
        await queryRunner.query(`
            DROP TABLE "purchase_order_receipt"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_item_order"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_purchase_order_item_product"
        `);
        await queryRunner.query(`
            DROP TABLE "purchase_order_item"
        `);
    }

}
