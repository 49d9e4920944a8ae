import { MigrationInterface, QueryRunner } from 'typeorm';

export class CteFreight1795452937322 implements MigrationInterface {
  name = 'CteFreight1795452937322';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
            CREATE INDEX "ix_cte_allocation_document" ON "cte_allocation" ("company_id", "entry_document_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_allocation_cte" ON "cte_allocation" ("company_id", "cte_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "cte_nfe" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "cte_id" integer NOT NULL,
                "position" integer NOT NULL,
                "nfe_key" varchar(44) NOT NULL
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_nfe_key" ON "cte_nfe" ("company_id", "nfe_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cte_nfe_cte" ON "cte_nfe" ("company_id", "cte_id", "position")
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
                "apportioned_freight" varchar(17) NOT NULL DEFAULT ('0.00')
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
                    "purchase_order_item_id"
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
                "purchase_order_item_id"
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
            DROP INDEX "uq_nfe_batch_file_seq"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_file_pending"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_file_order"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_nfe_batch_file" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "job_id" integer NOT NULL,
                "seq" integer NOT NULL,
                "name" varchar(255) NOT NULL,
                "size" integer NOT NULL,
                "kind" varchar(10),
                "phase" integer NOT NULL DEFAULT (0),
                "content_gz" blob,
                "status" varchar(10) NOT NULL,
                "access_key" varchar(44),
                "inbound_id" integer,
                "problem_code" varchar(60),
                "message" varchar(500),
                "processed_order" integer,
                "processed_at" datetime,
                "cte_id" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_nfe_batch_file"(
                    "id",
                    "company_id",
                    "job_id",
                    "seq",
                    "name",
                    "size",
                    "kind",
                    "phase",
                    "content_gz",
                    "status",
                    "access_key",
                    "inbound_id",
                    "problem_code",
                    "message",
                    "processed_order",
                    "processed_at"
                )
            SELECT "id",
                "company_id",
                "job_id",
                "seq",
                "name",
                "size",
                "kind",
                "phase",
                "content_gz",
                "status",
                "access_key",
                "inbound_id",
                "problem_code",
                "message",
                "processed_order",
                "processed_at"
            FROM "nfe_batch_file"
        `);
    await queryRunner.query(`
            DROP TABLE "nfe_batch_file"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_nfe_batch_file"
                RENAME TO "nfe_batch_file"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfe_batch_file_seq" ON "nfe_batch_file" ("company_id", "job_id", "seq")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_file_pending" ON "nfe_batch_file" ("company_id", "job_id", "status", "phase", "seq")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_file_order" ON "nfe_batch_file" ("company_id", "job_id", "processed_order")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_authorized"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfe_inbound_filial_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issued"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_import"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issuer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issue_date"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_company_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_entry_document"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_nfe_inbound" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "issuer_document" varchar(14) NOT NULL,
                "issuer_name" varchar(150) NOT NULL,
                "issuer_search" varchar(150) NOT NULL,
                "issuer_uf" varchar(2),
                "model" varchar(2) NOT NULL DEFAULT ('55'),
                "series" varchar(3),
                "number" varchar(9),
                "issued_at" datetime NOT NULL,
                "issue_date" date NOT NULL,
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "nsu" varchar(15),
                "kind" varchar(10) NOT NULL,
                "authority_status" varchar(12) NOT NULL,
                "environment" varchar(12) NOT NULL DEFAULT ('PRODUCTION'),
                "protocol_number" varchar(20),
                "authorized_at" datetime,
                "manifestation" varchar(14) NOT NULL DEFAULT ('NONE'),
                "manifestation_protocol" varchar(20),
                "manifestation_at" datetime,
                "has_xml" boolean NOT NULL DEFAULT (0),
                "xml_gzip" blob,
                "xml_sha256" varchar(64),
                "source" varchar(6) NOT NULL,
                "import_status" varchar(10) NOT NULL DEFAULT ('PENDING'),
                "entry_document_id" integer,
                "validation" text,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "freight_cte_announced_at" datetime,
                "freight_cte_key" varchar(44)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_nfe_inbound"(
                    "id",
                    "company_id",
                    "filial_id",
                    "access_key",
                    "issuer_document",
                    "issuer_name",
                    "issuer_search",
                    "issuer_uf",
                    "model",
                    "series",
                    "number",
                    "issued_at",
                    "issue_date",
                    "total",
                    "nsu",
                    "kind",
                    "authority_status",
                    "environment",
                    "protocol_number",
                    "authorized_at",
                    "manifestation",
                    "manifestation_protocol",
                    "manifestation_at",
                    "has_xml",
                    "xml_gzip",
                    "xml_sha256",
                    "source",
                    "import_status",
                    "entry_document_id",
                    "validation",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "access_key",
                "issuer_document",
                "issuer_name",
                "issuer_search",
                "issuer_uf",
                "model",
                "series",
                "number",
                "issued_at",
                "issue_date",
                "total",
                "nsu",
                "kind",
                "authority_status",
                "environment",
                "protocol_number",
                "authorized_at",
                "manifestation",
                "manifestation_protocol",
                "manifestation_at",
                "has_xml",
                "xml_gzip",
                "xml_sha256",
                "source",
                "import_status",
                "entry_document_id",
                "validation",
                "version",
                "created_at",
                "updated_at"
            FROM "nfe_inbound"
        `);
    await queryRunner.query(`
            DROP TABLE "nfe_inbound"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_nfe_inbound"
                RENAME TO "nfe_inbound"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_authorized" ON "nfe_inbound" ("company_id", "filial_id", "authorized_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfe_inbound_filial_key" ON "nfe_inbound" ("company_id", "filial_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issued" ON "nfe_inbound" ("company_id", "filial_id", "issued_at", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_import" ON "nfe_inbound" (
                "company_id",
                "filial_id",
                "import_status",
                "issued_at",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issuer" ON "nfe_inbound" ("company_id", "filial_id", "issuer_document")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issue_date" ON "nfe_inbound" ("company_id", "filial_id", "issue_date")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_company_key" ON "nfe_inbound" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_entry_document" ON "nfe_inbound" ("company_id", "entry_document_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_status_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_supplier"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_payable" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "document_number" varchar(20) NOT NULL,
                "installment_number" integer NOT NULL,
                "issue_date" date NOT NULL,
                "due_date" date NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "paid_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(16) NOT NULL,
                "cancelled_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "source_type" varchar(16) NOT NULL DEFAULT ('ENTRY_DOCUMENT'),
                "cte_id" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_payable"(
                    "id",
                    "company_id",
                    "filial_id",
                    "entry_document_id",
                    "supplier_id",
                    "supplier_document",
                    "supplier_name",
                    "document_number",
                    "installment_number",
                    "issue_date",
                    "due_date",
                    "amount",
                    "paid_amount",
                    "status",
                    "cancelled_at",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "entry_document_id",
                "supplier_id",
                "supplier_document",
                "supplier_name",
                "document_number",
                "installment_number",
                "issue_date",
                "due_date",
                "amount",
                "paid_amount",
                "status",
                "cancelled_at",
                "version",
                "created_at",
                "updated_at"
            FROM "payable"
        `);
    await queryRunner.query(`
            DROP TABLE "payable"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_payable"
                RENAME TO "payable"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_due" ON "payable" ("company_id", "filial_id", "due_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_status_due" ON "payable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_document" ON "payable" (
                "company_id",
                "entry_document_id",
                "installment_number"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_supplier" ON "payable" ("company_id", "supplier_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_movement_product"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_movement_reference"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_stock_movement" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "product_id" integer NOT NULL,
                "direction" varchar(3) NOT NULL,
                "reason" varchar(40) NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "balance_after" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "average_cost_after" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "reference_type" varchar(40) NOT NULL,
                "reference_id" integer NOT NULL,
                "reference_line_id" integer,
                "actor" varchar(100),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "value_adjustment" varchar(17) NOT NULL DEFAULT ('0.00')
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_stock_movement"(
                    "id",
                    "company_id",
                    "filial_id",
                    "product_id",
                    "direction",
                    "reason",
                    "quantity",
                    "unit_cost",
                    "balance_after",
                    "average_cost_after",
                    "reference_type",
                    "reference_id",
                    "reference_line_id",
                    "actor",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "product_id",
                "direction",
                "reason",
                "quantity",
                "unit_cost",
                "balance_after",
                "average_cost_after",
                "reference_type",
                "reference_id",
                "reference_line_id",
                "actor",
                "created_at"
            FROM "stock_movement"
        `);
    await queryRunner.query(`
            DROP TABLE "stock_movement"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_stock_movement"
                RENAME TO "stock_movement"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_movement_product" ON "stock_movement" ("company_id", "filial_id", "product_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_movement_reference" ON "stock_movement" ("company_id", "reference_type", "reference_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_status_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_supplier"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_payable" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "entry_document_id" integer,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "document_number" varchar(20) NOT NULL,
                "installment_number" integer NOT NULL,
                "issue_date" date NOT NULL,
                "due_date" date NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "paid_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(16) NOT NULL,
                "cancelled_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "source_type" varchar(16) NOT NULL DEFAULT ('ENTRY_DOCUMENT'),
                "cte_id" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_payable"(
                    "id",
                    "company_id",
                    "filial_id",
                    "entry_document_id",
                    "supplier_id",
                    "supplier_document",
                    "supplier_name",
                    "document_number",
                    "installment_number",
                    "issue_date",
                    "due_date",
                    "amount",
                    "paid_amount",
                    "status",
                    "cancelled_at",
                    "version",
                    "created_at",
                    "updated_at",
                    "source_type",
                    "cte_id"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "entry_document_id",
                "supplier_id",
                "supplier_document",
                "supplier_name",
                "document_number",
                "installment_number",
                "issue_date",
                "due_date",
                "amount",
                "paid_amount",
                "status",
                "cancelled_at",
                "version",
                "created_at",
                "updated_at",
                "source_type",
                "cte_id"
            FROM "payable"
        `);
    await queryRunner.query(`
            DROP TABLE "payable"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_payable"
                RENAME TO "payable"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_due" ON "payable" ("company_id", "filial_id", "due_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_status_due" ON "payable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_supplier" ON "payable" ("company_id", "supplier_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_cte" ON "payable" ("company_id", "cte_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_document" ON "payable" (
                "company_id",
                "entry_document_id",
                "installment_number"
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_payable_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_cte"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_supplier"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_status_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_due"
        `);
    await queryRunner.query(`
            ALTER TABLE "payable"
                RENAME TO "temporary_payable"
        `);
    await queryRunner.query(`
            CREATE TABLE "payable" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "document_number" varchar(20) NOT NULL,
                "installment_number" integer NOT NULL,
                "issue_date" date NOT NULL,
                "due_date" date NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "paid_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(16) NOT NULL,
                "cancelled_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "source_type" varchar(16) NOT NULL DEFAULT ('ENTRY_DOCUMENT'),
                "cte_id" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "payable"(
                    "id",
                    "company_id",
                    "filial_id",
                    "entry_document_id",
                    "supplier_id",
                    "supplier_document",
                    "supplier_name",
                    "document_number",
                    "installment_number",
                    "issue_date",
                    "due_date",
                    "amount",
                    "paid_amount",
                    "status",
                    "cancelled_at",
                    "version",
                    "created_at",
                    "updated_at",
                    "source_type",
                    "cte_id"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "entry_document_id",
                "supplier_id",
                "supplier_document",
                "supplier_name",
                "document_number",
                "installment_number",
                "issue_date",
                "due_date",
                "amount",
                "paid_amount",
                "status",
                "cancelled_at",
                "version",
                "created_at",
                "updated_at",
                "source_type",
                "cte_id"
            FROM "temporary_payable"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_payable"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_supplier" ON "payable" ("company_id", "supplier_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_status_due" ON "payable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_due" ON "payable" ("company_id", "filial_id", "due_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_document" ON "payable" (
                "company_id",
                "entry_document_id",
                "installment_number"
            )
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_movement_reference"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_movement_product"
        `);
    await queryRunner.query(`
            ALTER TABLE "stock_movement"
                RENAME TO "temporary_stock_movement"
        `);
    await queryRunner.query(`
            CREATE TABLE "stock_movement" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "product_id" integer NOT NULL,
                "direction" varchar(3) NOT NULL,
                "reason" varchar(40) NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "balance_after" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "average_cost_after" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "reference_type" varchar(40) NOT NULL,
                "reference_id" integer NOT NULL,
                "reference_line_id" integer,
                "actor" varchar(100),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "stock_movement"(
                    "id",
                    "company_id",
                    "filial_id",
                    "product_id",
                    "direction",
                    "reason",
                    "quantity",
                    "unit_cost",
                    "balance_after",
                    "average_cost_after",
                    "reference_type",
                    "reference_id",
                    "reference_line_id",
                    "actor",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "product_id",
                "direction",
                "reason",
                "quantity",
                "unit_cost",
                "balance_after",
                "average_cost_after",
                "reference_type",
                "reference_id",
                "reference_line_id",
                "actor",
                "created_at"
            FROM "temporary_stock_movement"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_stock_movement"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_movement_reference" ON "stock_movement" ("company_id", "reference_type", "reference_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_movement_product" ON "stock_movement" ("company_id", "filial_id", "product_id", "id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_supplier"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_status_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_payable_filial_due"
        `);
    await queryRunner.query(`
            ALTER TABLE "payable"
                RENAME TO "temporary_payable"
        `);
    await queryRunner.query(`
            CREATE TABLE "payable" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "supplier_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_name" varchar(150) NOT NULL,
                "document_number" varchar(20) NOT NULL,
                "installment_number" integer NOT NULL,
                "issue_date" date NOT NULL,
                "due_date" date NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "paid_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(16) NOT NULL,
                "cancelled_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "payable"(
                    "id",
                    "company_id",
                    "filial_id",
                    "entry_document_id",
                    "supplier_id",
                    "supplier_document",
                    "supplier_name",
                    "document_number",
                    "installment_number",
                    "issue_date",
                    "due_date",
                    "amount",
                    "paid_amount",
                    "status",
                    "cancelled_at",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "entry_document_id",
                "supplier_id",
                "supplier_document",
                "supplier_name",
                "document_number",
                "installment_number",
                "issue_date",
                "due_date",
                "amount",
                "paid_amount",
                "status",
                "cancelled_at",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_payable"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_payable"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_supplier" ON "payable" ("company_id", "supplier_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_document" ON "payable" (
                "company_id",
                "entry_document_id",
                "installment_number"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_status_due" ON "payable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_payable_filial_due" ON "payable" ("company_id", "filial_id", "due_date", "id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_entry_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_company_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issue_date"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issuer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_import"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issued"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfe_inbound_filial_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_authorized"
        `);
    await queryRunner.query(`
            ALTER TABLE "nfe_inbound"
                RENAME TO "temporary_nfe_inbound"
        `);
    await queryRunner.query(`
            CREATE TABLE "nfe_inbound" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "issuer_document" varchar(14) NOT NULL,
                "issuer_name" varchar(150) NOT NULL,
                "issuer_search" varchar(150) NOT NULL,
                "issuer_uf" varchar(2),
                "model" varchar(2) NOT NULL DEFAULT ('55'),
                "series" varchar(3),
                "number" varchar(9),
                "issued_at" datetime NOT NULL,
                "issue_date" date NOT NULL,
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "nsu" varchar(15),
                "kind" varchar(10) NOT NULL,
                "authority_status" varchar(12) NOT NULL,
                "environment" varchar(12) NOT NULL DEFAULT ('PRODUCTION'),
                "protocol_number" varchar(20),
                "authorized_at" datetime,
                "manifestation" varchar(14) NOT NULL DEFAULT ('NONE'),
                "manifestation_protocol" varchar(20),
                "manifestation_at" datetime,
                "has_xml" boolean NOT NULL DEFAULT (0),
                "xml_gzip" blob,
                "xml_sha256" varchar(64),
                "source" varchar(6) NOT NULL,
                "import_status" varchar(10) NOT NULL DEFAULT ('PENDING'),
                "entry_document_id" integer,
                "validation" text,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "nfe_inbound"(
                    "id",
                    "company_id",
                    "filial_id",
                    "access_key",
                    "issuer_document",
                    "issuer_name",
                    "issuer_search",
                    "issuer_uf",
                    "model",
                    "series",
                    "number",
                    "issued_at",
                    "issue_date",
                    "total",
                    "nsu",
                    "kind",
                    "authority_status",
                    "environment",
                    "protocol_number",
                    "authorized_at",
                    "manifestation",
                    "manifestation_protocol",
                    "manifestation_at",
                    "has_xml",
                    "xml_gzip",
                    "xml_sha256",
                    "source",
                    "import_status",
                    "entry_document_id",
                    "validation",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "access_key",
                "issuer_document",
                "issuer_name",
                "issuer_search",
                "issuer_uf",
                "model",
                "series",
                "number",
                "issued_at",
                "issue_date",
                "total",
                "nsu",
                "kind",
                "authority_status",
                "environment",
                "protocol_number",
                "authorized_at",
                "manifestation",
                "manifestation_protocol",
                "manifestation_at",
                "has_xml",
                "xml_gzip",
                "xml_sha256",
                "source",
                "import_status",
                "entry_document_id",
                "validation",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_nfe_inbound"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_nfe_inbound"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_entry_document" ON "nfe_inbound" ("company_id", "entry_document_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_company_key" ON "nfe_inbound" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issue_date" ON "nfe_inbound" ("company_id", "filial_id", "issue_date")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issuer" ON "nfe_inbound" ("company_id", "filial_id", "issuer_document")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_import" ON "nfe_inbound" (
                "company_id",
                "filial_id",
                "import_status",
                "issued_at",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issued" ON "nfe_inbound" ("company_id", "filial_id", "issued_at", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfe_inbound_filial_key" ON "nfe_inbound" ("company_id", "filial_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_authorized" ON "nfe_inbound" ("company_id", "filial_id", "authorized_at")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_file_order"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_file_pending"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfe_batch_file_seq"
        `);
    await queryRunner.query(`
            ALTER TABLE "nfe_batch_file"
                RENAME TO "temporary_nfe_batch_file"
        `);
    await queryRunner.query(`
            CREATE TABLE "nfe_batch_file" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "job_id" integer NOT NULL,
                "seq" integer NOT NULL,
                "name" varchar(255) NOT NULL,
                "size" integer NOT NULL,
                "kind" varchar(10),
                "phase" integer NOT NULL DEFAULT (0),
                "content_gz" blob,
                "status" varchar(10) NOT NULL,
                "access_key" varchar(44),
                "inbound_id" integer,
                "problem_code" varchar(60),
                "message" varchar(500),
                "processed_order" integer,
                "processed_at" datetime
            )
        `);
    await queryRunner.query(`
            INSERT INTO "nfe_batch_file"(
                    "id",
                    "company_id",
                    "job_id",
                    "seq",
                    "name",
                    "size",
                    "kind",
                    "phase",
                    "content_gz",
                    "status",
                    "access_key",
                    "inbound_id",
                    "problem_code",
                    "message",
                    "processed_order",
                    "processed_at"
                )
            SELECT "id",
                "company_id",
                "job_id",
                "seq",
                "name",
                "size",
                "kind",
                "phase",
                "content_gz",
                "status",
                "access_key",
                "inbound_id",
                "problem_code",
                "message",
                "processed_order",
                "processed_at"
            FROM "temporary_nfe_batch_file"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_nfe_batch_file"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_file_order" ON "nfe_batch_file" ("company_id", "job_id", "processed_order")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_file_pending" ON "nfe_batch_file" ("company_id", "job_id", "status", "phase", "seq")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfe_batch_file_seq" ON "nfe_batch_file" ("company_id", "job_id", "seq")
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
                "purchase_order_item_id" integer
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
                    "purchase_order_item_id"
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
                "purchase_order_item_id"
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
            DROP TABLE "cte"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_nfe_cte"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_nfe_key"
        `);
    await queryRunner.query(`
            DROP TABLE "cte_nfe"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_allocation_cte"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cte_allocation_document"
        `);
    await queryRunner.query(`
            DROP TABLE "cte_allocation"
        `);
  }
}
