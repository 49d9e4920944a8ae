import { MigrationInterface, QueryRunner } from 'typeorm';

export class SupplierReturns1795842466157 implements MigrationInterface {
  name = 'SupplierReturns1795842466157';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "payable_deduction" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "payable_id" integer NOT NULL,
                "source_type" varchar(20) NOT NULL,
                "source_id" integer NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status_before" varchar(16) NOT NULL,
                "status" varchar(10) NOT NULL,
                "reversed_at" datetime,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_deduction_source" ON "payable_deduction" ("company_id", "source_type", "source_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_deduction_payable" ON "payable_deduction" ("company_id", "payable_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "supplier_credit" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "entry_document_id" integer NOT NULL,
                "source_type" varchar(20) NOT NULL,
                "source_id" integer NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(10) NOT NULL,
                "cancelled_at" datetime,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_credit_source" ON "supplier_credit" ("company_id", "source_type", "source_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_credit_supplier" ON "supplier_credit" ("company_id", "supplier_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "supplier_return_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "supplier_return_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "entry_document_item_id" integer NOT NULL,
                "product_id" integer,
                "purchase_order_item_id" integer,
                "cfop" varchar(4) NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "conversion_factor" varchar(17) NOT NULL DEFAULT ('1.000000'),
                "stock_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "products_value" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "insurance" varchar(17) NOT NULL DEFAULT ('0.00'),
                "other_expenses" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_base" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "ipi_base" varchar(17) NOT NULL DEFAULT ('0.00'),
                "ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_st_base" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_st" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "entry_unit_cost" varchar(23) DEFAULT ('0.0000000000'),
                "stock_value" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_pis" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cofins" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cbs" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_ibs" varchar(17) NOT NULL DEFAULT ('0.00')
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_return_item_entry_item" ON "supplier_return_item" ("company_id", "entry_document_item_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_return_item_return" ON "supplier_return_item" (
                "company_id",
                "supplier_return_id",
                "line_number"
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "supplier_return" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "code" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "referenced_key" varchar(44),
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "status" varchar(12) NOT NULL,
                "reason" varchar(255) NOT NULL,
                "invoice_id" integer,
                "products_value" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "insurance" varchar(17) NOT NULL DEFAULT ('0.00'),
                "other_expenses" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_st" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "stock_value" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_pis" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cofins" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cbs" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_ibs" varchar(17) NOT NULL DEFAULT ('0.00'),
                "payables_deducted" varchar(17) NOT NULL DEFAULT ('0.00'),
                "supplier_credit" varchar(17) NOT NULL DEFAULT ('0.00'),
                "actor" varchar(100) NOT NULL,
                "request_key" varchar(255),
                "authorized_at" datetime,
                "cancelled_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_supplier_return_request" ON "supplier_return" ("company_id", "request_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_return_invoice" ON "supplier_return" ("company_id", "invoice_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_return_document" ON "supplier_return" ("company_id", "entry_document_id", "status")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_return_filial" ON "supplier_return" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_supplier_return_code" ON "supplier_return" ("company_id", "code")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_supplier_return_code"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_return_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_return_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_return_invoice"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_supplier_return_request"
        `);
    await queryRunner.query(`
            DROP TABLE "supplier_return"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_return_item_return"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_return_item_entry_item"
        `);
    await queryRunner.query(`
            DROP TABLE "supplier_return_item"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_credit_supplier"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_credit_source"
        `);
    await queryRunner.query(`
            DROP TABLE "supplier_credit"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_deduction_payable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_deduction_source"
        `);
    await queryRunner.query(`
            DROP TABLE "payable_deduction"
        `);
  }
}
