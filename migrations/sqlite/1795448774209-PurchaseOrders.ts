import { MigrationInterface, QueryRunner } from 'typeorm';

export class PurchaseOrders1795448774209 implements MigrationInterface {
  name = 'PurchaseOrders1795448774209';

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
    // A plain ADD COLUMN rather than the generator's copy of the table: the copy lists the columns
    // known when it was generated and would drop any column another migration added meanwhile.
    await queryRunner.query(`
            ALTER TABLE "entry_document_item" ADD COLUMN "purchase_order_item_id" integer
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "entry_document_item" DROP COLUMN "purchase_order_item_id"
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
