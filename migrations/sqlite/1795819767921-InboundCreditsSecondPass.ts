import { MigrationInterface, QueryRunner } from 'typeorm';

export class InboundCreditsSecondPass1795819767921 implements MigrationInterface {
  name = 'InboundCreditsSecondPass1795819767921';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_cte_allocation_cte"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_allocation_document"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_cte_allocation" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "cte_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "item_id" integer NOT NULL,
                "product_id" integer,
                "mode" varchar(16) NOT NULL,
                "basis" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "share" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_credit" varchar(17) NOT NULL DEFAULT ('0.00'),
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "quantity_received" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "quantity_in_stock" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "absorbed" varchar(17) NOT NULL DEFAULT ('0.00'),
                "unabsorbed" varchar(17) NOT NULL DEFAULT ('0.00'),
                "reversed_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "reversed_unabsorbed" varchar(17) NOT NULL DEFAULT ('0.00'),
                "reversed_at" datetime,
                "pis_credit" varchar(17) NOT NULL DEFAULT (0),
                "cofins_credit" varchar(17) NOT NULL DEFAULT (0)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_cte_allocation"(
                    "id",
                    "company_id",
                    "cte_id",
                    "entry_document_id",
                    "line_number",
                    "item_id",
                    "product_id",
                    "mode",
                    "basis",
                    "share",
                    "icms_credit",
                    "amount",
                    "quantity_received",
                    "quantity_in_stock",
                    "absorbed",
                    "unabsorbed",
                    "reversed_amount",
                    "reversed_unabsorbed",
                    "reversed_at"
                )
            SELECT "id",
                "company_id",
                "cte_id",
                "entry_document_id",
                "line_number",
                "item_id",
                "product_id",
                "mode",
                "basis",
                "share",
                "icms_credit",
                "amount",
                "quantity_received",
                "quantity_in_stock",
                "absorbed",
                "unabsorbed",
                "reversed_amount",
                "reversed_unabsorbed",
                "reversed_at"
            FROM "cte_allocation"
        `);
    await queryRunner.query(`
            DROP TABLE "cte_allocation"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_cte_allocation"
                RENAME TO "cte_allocation"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_allocation_cte" ON "cte_allocation" ("company_id", "cte_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_allocation_document" ON "cte_allocation" ("company_id", "entry_document_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_cte_company_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_filial_issued"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_filial_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_filial_issuer"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_cte" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "status" varchar(12) NOT NULL,
                "issuer_document" varchar(14) NOT NULL,
                "issuer_name" varchar(150) NOT NULL,
                "issuer_search" varchar(150) NOT NULL,
                "issuer_state_registration" varchar(20),
                "issuer_uf" varchar(2),
                "series" varchar(3) NOT NULL,
                "number" varchar(9) NOT NULL,
                "issued_at" datetime NOT NULL,
                "issue_date" date NOT NULL,
                "environment" varchar(12) NOT NULL,
                "protocol_number" varchar(20),
                "authorized_at" datetime,
                "payer_role" varchar(10) NOT NULL,
                "service_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "receivable" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_value" varchar(17) NOT NULL DEFAULT ('0.00'),
                "nfe_count" integer NOT NULL DEFAULT (0),
                "xml_gzip" blob NOT NULL,
                "xml_sha256" varchar(64) NOT NULL,
                "validation" text NOT NULL,
                "apportion_method" varchar(10),
                "apportioned_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "recoverable_icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "sold_share" varchar(17) NOT NULL DEFAULT ('0.00'),
                "entry_date" date,
                "supplier_id" integer,
                "apportioned_at" datetime,
                "cancelled_at" datetime,
                "cancel_reason" varchar(255),
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "pis_credit" varchar(17) NOT NULL DEFAULT (0),
                "cofins_credit" varchar(17) NOT NULL DEFAULT (0)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_cte"(
                    "id",
                    "company_id",
                    "filial_id",
                    "access_key",
                    "status",
                    "issuer_document",
                    "issuer_name",
                    "issuer_search",
                    "issuer_state_registration",
                    "issuer_uf",
                    "series",
                    "number",
                    "issued_at",
                    "issue_date",
                    "environment",
                    "protocol_number",
                    "authorized_at",
                    "payer_role",
                    "service_total",
                    "receivable",
                    "icms_value",
                    "nfe_count",
                    "xml_gzip",
                    "xml_sha256",
                    "validation",
                    "apportion_method",
                    "apportioned_amount",
                    "recoverable_icms",
                    "sold_share",
                    "entry_date",
                    "supplier_id",
                    "apportioned_at",
                    "cancelled_at",
                    "cancel_reason",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "access_key",
                "status",
                "issuer_document",
                "issuer_name",
                "issuer_search",
                "issuer_state_registration",
                "issuer_uf",
                "series",
                "number",
                "issued_at",
                "issue_date",
                "environment",
                "protocol_number",
                "authorized_at",
                "payer_role",
                "service_total",
                "receivable",
                "icms_value",
                "nfe_count",
                "xml_gzip",
                "xml_sha256",
                "validation",
                "apportion_method",
                "apportioned_amount",
                "recoverable_icms",
                "sold_share",
                "entry_date",
                "supplier_id",
                "apportioned_at",
                "cancelled_at",
                "cancel_reason",
                "version",
                "created_at",
                "updated_at"
            FROM "cte"
        `);
    await queryRunner.query(`
            DROP TABLE "cte"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_cte"
                RENAME TO "cte"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_cte_company_key" ON "cte" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_filial_issued" ON "cte" ("company_id", "filial_id", "issued_at", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_filial_status" ON "cte" (
                "company_id",
                "filial_id",
                "status",
                "issued_at",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_filial_issuer" ON "cte" ("company_id", "filial_id", "issuer_document")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_product"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_document"
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
                "credit_ibs" varchar(17) NOT NULL DEFAULT (0)
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
                    "apportioned_freight"
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
                "apportioned_freight"
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
            CREATE INDEX "ix_entry_document_item_product" ON "entry_document_item" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_document" ON "entry_document_item" ("company_id", "entry_document_id", "line_number")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_product"
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
                "apportioned_freight" varchar(17) NOT NULL DEFAULT ('0.00')
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
                    "apportioned_freight"
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
                "apportioned_freight"
            FROM "temporary_entry_document_item"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_entry_document_item"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_document" ON "entry_document_item" ("company_id", "entry_document_id", "line_number")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_product" ON "entry_document_item" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_filial_issuer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_filial_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_filial_issued"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_cte_company_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "cte"
                RENAME TO "temporary_cte"
        `);
    await queryRunner.query(`
            CREATE TABLE "cte" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "status" varchar(12) NOT NULL,
                "issuer_document" varchar(14) NOT NULL,
                "issuer_name" varchar(150) NOT NULL,
                "issuer_search" varchar(150) NOT NULL,
                "issuer_state_registration" varchar(20),
                "issuer_uf" varchar(2),
                "series" varchar(3) NOT NULL,
                "number" varchar(9) NOT NULL,
                "issued_at" datetime NOT NULL,
                "issue_date" date NOT NULL,
                "environment" varchar(12) NOT NULL,
                "protocol_number" varchar(20),
                "authorized_at" datetime,
                "payer_role" varchar(10) NOT NULL,
                "service_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "receivable" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_value" varchar(17) NOT NULL DEFAULT ('0.00'),
                "nfe_count" integer NOT NULL DEFAULT (0),
                "xml_gzip" blob NOT NULL,
                "xml_sha256" varchar(64) NOT NULL,
                "validation" text NOT NULL,
                "apportion_method" varchar(10),
                "apportioned_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "recoverable_icms" varchar(17) NOT NULL DEFAULT ('0.00'),
                "sold_share" varchar(17) NOT NULL DEFAULT ('0.00'),
                "entry_date" date,
                "supplier_id" integer,
                "apportioned_at" datetime,
                "cancelled_at" datetime,
                "cancel_reason" varchar(255),
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "cte"(
                    "id",
                    "company_id",
                    "filial_id",
                    "access_key",
                    "status",
                    "issuer_document",
                    "issuer_name",
                    "issuer_search",
                    "issuer_state_registration",
                    "issuer_uf",
                    "series",
                    "number",
                    "issued_at",
                    "issue_date",
                    "environment",
                    "protocol_number",
                    "authorized_at",
                    "payer_role",
                    "service_total",
                    "receivable",
                    "icms_value",
                    "nfe_count",
                    "xml_gzip",
                    "xml_sha256",
                    "validation",
                    "apportion_method",
                    "apportioned_amount",
                    "recoverable_icms",
                    "sold_share",
                    "entry_date",
                    "supplier_id",
                    "apportioned_at",
                    "cancelled_at",
                    "cancel_reason",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "access_key",
                "status",
                "issuer_document",
                "issuer_name",
                "issuer_search",
                "issuer_state_registration",
                "issuer_uf",
                "series",
                "number",
                "issued_at",
                "issue_date",
                "environment",
                "protocol_number",
                "authorized_at",
                "payer_role",
                "service_total",
                "receivable",
                "icms_value",
                "nfe_count",
                "xml_gzip",
                "xml_sha256",
                "validation",
                "apportion_method",
                "apportioned_amount",
                "recoverable_icms",
                "sold_share",
                "entry_date",
                "supplier_id",
                "apportioned_at",
                "cancelled_at",
                "cancel_reason",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_cte"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_cte"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_filial_issuer" ON "cte" ("company_id", "filial_id", "issuer_document")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_filial_status" ON "cte" (
                "company_id",
                "filial_id",
                "status",
                "issued_at",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_filial_issued" ON "cte" ("company_id", "filial_id", "issued_at", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_cte_company_key" ON "cte" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_allocation_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_allocation_cte"
        `);
    await queryRunner.query(`
            ALTER TABLE "cte_allocation"
                RENAME TO "temporary_cte_allocation"
        `);
    await queryRunner.query(`
            CREATE TABLE "cte_allocation" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "cte_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "item_id" integer NOT NULL,
                "product_id" integer,
                "mode" varchar(16) NOT NULL,
                "basis" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "share" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_credit" varchar(17) NOT NULL DEFAULT ('0.00'),
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "quantity_received" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "quantity_in_stock" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "absorbed" varchar(17) NOT NULL DEFAULT ('0.00'),
                "unabsorbed" varchar(17) NOT NULL DEFAULT ('0.00'),
                "reversed_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "reversed_unabsorbed" varchar(17) NOT NULL DEFAULT ('0.00'),
                "reversed_at" datetime
            )
        `);
    await queryRunner.query(`
            INSERT INTO "cte_allocation"(
                    "id",
                    "company_id",
                    "cte_id",
                    "entry_document_id",
                    "line_number",
                    "item_id",
                    "product_id",
                    "mode",
                    "basis",
                    "share",
                    "icms_credit",
                    "amount",
                    "quantity_received",
                    "quantity_in_stock",
                    "absorbed",
                    "unabsorbed",
                    "reversed_amount",
                    "reversed_unabsorbed",
                    "reversed_at"
                )
            SELECT "id",
                "company_id",
                "cte_id",
                "entry_document_id",
                "line_number",
                "item_id",
                "product_id",
                "mode",
                "basis",
                "share",
                "icms_credit",
                "amount",
                "quantity_received",
                "quantity_in_stock",
                "absorbed",
                "unabsorbed",
                "reversed_amount",
                "reversed_unabsorbed",
                "reversed_at"
            FROM "temporary_cte_allocation"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_cte_allocation"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_allocation_document" ON "cte_allocation" ("company_id", "entry_document_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_allocation_cte" ON "cte_allocation" ("company_id", "cte_id", "id")
        `);
  }
}
