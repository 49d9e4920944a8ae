import { MigrationInterface, QueryRunner } from 'typeorm';

export class InboundImportCosts1795821719173 implements MigrationInterface {
  name = 'InboundImportCosts1795821719173';

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
                "reform_taxes" text,
                "entry_cfop" varchar(4),
                "entry_cfop_source" varchar(12) NOT NULL DEFAULT ('NONE'),
                "operation_class" varchar(30),
                "operation_class_source" varchar(12) NOT NULL DEFAULT ('NONE'),
                "credit_icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_pis" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cofins" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_base" varchar(17) NOT NULL DEFAULT ('0.00'),
                "cost_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "purchase_order_item_id" integer,
                "apportioned_freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cbs" varchar(17) NOT NULL DEFAULT (0),
                "credit_ibs" varchar(17) NOT NULL DEFAULT (0),
                "import_duty" varchar(17) NOT NULL DEFAULT (0),
                "customs_expenses" varchar(17) NOT NULL DEFAULT (0)
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
                    "declared_cfop",
                    "reform_taxes",
                    "entry_cfop",
                    "entry_cfop_source",
                    "operation_class",
                    "operation_class_source",
                    "credit_icms",
                    "credit_pis",
                    "credit_cofins",
                    "credit_ipi",
                    "credit_base",
                    "cost_total",
                    "purchase_order_item_id",
                    "apportioned_freight",
                    "credit_cbs",
                    "credit_ibs"
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
                "declared_cfop",
                "reform_taxes",
                "entry_cfop",
                "entry_cfop_source",
                "operation_class",
                "operation_class_source",
                "credit_icms",
                "credit_pis",
                "credit_cofins",
                "credit_ipi",
                "credit_base",
                "cost_total",
                "purchase_order_item_id",
                "apportioned_freight",
                "credit_cbs",
                "credit_ibs"
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
                "declared_cfop" varchar(4),
                "reform_taxes" text,
                "entry_cfop" varchar(4),
                "entry_cfop_source" varchar(12) NOT NULL DEFAULT ('NONE'),
                "operation_class" varchar(30),
                "operation_class_source" varchar(12) NOT NULL DEFAULT ('NONE'),
                "credit_icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_pis" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cofins" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_ipi" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_base" varchar(17) NOT NULL DEFAULT ('0.00'),
                "cost_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "purchase_order_item_id" integer,
                "apportioned_freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credit_cbs" varchar(17) NOT NULL DEFAULT (0),
                "credit_ibs" varchar(17) NOT NULL DEFAULT (0)
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
                    "declared_cfop",
                    "reform_taxes",
                    "entry_cfop",
                    "entry_cfop_source",
                    "operation_class",
                    "operation_class_source",
                    "credit_icms",
                    "credit_pis",
                    "credit_cofins",
                    "credit_ipi",
                    "credit_base",
                    "cost_total",
                    "purchase_order_item_id",
                    "apportioned_freight",
                    "credit_cbs",
                    "credit_ibs"
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
                "declared_cfop",
                "reform_taxes",
                "entry_cfop",
                "entry_cfop_source",
                "operation_class",
                "operation_class_source",
                "credit_icms",
                "credit_pis",
                "credit_cofins",
                "credit_ipi",
                "credit_base",
                "cost_total",
                "purchase_order_item_id",
                "apportioned_freight",
                "credit_cbs",
                "credit_ibs"
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
