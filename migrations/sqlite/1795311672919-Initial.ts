import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795311672919 implements MigrationInterface {
  name = 'Initial1795311672919';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "audit_log" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "entity" varchar(40) NOT NULL,
                "entity_id" integer NOT NULL,
                "action" varchar(40) NOT NULL,
                "actor" varchar(100) NOT NULL,
                "request_id" varchar(64),
                "changes" text,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_audit_entity" ON "audit_log" ("company_id", "entity", "entity_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "idempotency_key" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "key" varchar(120) NOT NULL,
                "request_hash" varchar(64) NOT NULL,
                "state" varchar(12) NOT NULL,
                "response_status" integer,
                "response_body" text,
                "response_content_type" varchar(60),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_idempotency_key" ON "idempotency_key" ("company_id", "key")
        `);
    await queryRunner.query(`
            CREATE TABLE "outbox_event" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer,
                "type" varchar(60) NOT NULL,
                "aggregate_type" varchar(40) NOT NULL,
                "aggregate_id" integer NOT NULL,
                "data" text NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbox_company_type" ON "outbox_event" ("company_id", "type", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbox_company" ON "outbox_event" ("company_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sequence" (
                "company_id" integer NOT NULL,
                "name" varchar(40) NOT NULL,
                "value" integer NOT NULL DEFAULT (0),
                PRIMARY KEY ("company_id", "name")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "customer" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "name" varchar(150) NOT NULL,
                "trade_name" varchar(150),
                "search_name" varchar(150) NOT NULL,
                "search_trade_name" varchar(150),
                "document" varchar(14),
                "email" varchar(150),
                "phone" varchar(20),
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_document" ON "customer" ("company_id", "document")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_trade" ON "customer" ("company_id", "search_trade_name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_name" ON "customer" ("company_id", "search_name")
        `);
    await queryRunner.query(`
            CREATE TABLE "payment_method" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "code" varchar(30) NOT NULL,
                "name" varchar(80) NOT NULL,
                "kind" varchar(20) NOT NULL,
                "gives_change" boolean NOT NULL DEFAULT (0),
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_payment_method_company_code" ON "payment_method" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE TABLE "product" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "code" varchar(30) NOT NULL,
                "name" varchar(200) NOT NULL,
                "search_name" varchar(200) NOT NULL,
                "unit" varchar(6) NOT NULL,
                "gtin" varchar(14),
                "ncm" varchar(8),
                "cest" varchar(7),
                "price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "active" boolean NOT NULL DEFAULT (1),
                "stock_controlled" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_product_company_search" ON "product" ("company_id", "search_name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_product_company_gtin" ON "product" ("company_id", "gtin")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_product_company_code" ON "product" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE TABLE "seller" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "name" varchar(120) NOT NULL,
                "alias" varchar(60),
                "search_name" varchar(200) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_seller_company_name" ON "seller" ("company_id", "search_name")
        `);
    await queryRunner.query(`
            CREATE TABLE "entry_document_installment" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "number" integer NOT NULL,
                "due_date" date NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00')
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_installment_document" ON "entry_document_installment" ("company_id", "entry_document_id", "number")
        `);
    await queryRunner.query(`
            CREATE TABLE "supplier" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "document" varchar(14) NOT NULL,
                "name" varchar(150) NOT NULL,
                "trade_name" varchar(150),
                "search_name" varchar(150) NOT NULL,
                "state_registration" varchar(20),
                "uf" varchar(2),
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_supplier_company_name" ON "supplier" ("company_id", "search_name")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_supplier_company_document" ON "supplier" ("company_id", "document")
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
            CREATE INDEX "ix_entry_document_item_product" ON "entry_document_item" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_entry_document_item_document" ON "entry_document_item" ("company_id", "entry_document_id", "line_number")
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
            CREATE UNIQUE INDEX "uq_entry_document_access_key" ON "entry_document" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE TABLE "webhook_delivery" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "subscription_id" integer NOT NULL,
                "event_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "attempts" integer NOT NULL DEFAULT (0),
                "next_attempt_at" datetime NOT NULL,
                "locked_until" datetime,
                "last_status_code" integer,
                "last_error" varchar(300),
                "delivered_at" datetime,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_delivery_company" ON "webhook_delivery" ("company_id", "subscription_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_delivery_due" ON "webhook_delivery" ("status", "next_attempt_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_webhook_delivery" ON "webhook_delivery" ("subscription_id", "event_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "webhook_subscription" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "url" varchar(500) NOT NULL,
                "types" text NOT NULL,
                "description" varchar(200),
                "secret" varchar(80) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "last_event_id" integer NOT NULL DEFAULT (0),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_subscription_active" ON "webhook_subscription" ("active", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_subscription_company" ON "webhook_subscription" ("company_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "nfe_inbound_event" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "inbound_id" integer NOT NULL,
                "type" varchar(30) NOT NULL,
                "event_code" varchar(6),
                "sequence" integer,
                "protocol" varchar(20),
                "description" varchar(255) NOT NULL,
                "actor" varchar(100) NOT NULL,
                "occurred_at" datetime NOT NULL,
                "data" text,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_event_inbound" ON "nfe_inbound_event" ("company_id", "inbound_id", "id")
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
            CREATE TABLE "product_map_entry" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "supplier_document" varchar(14) NOT NULL,
                "supplier_product_code" varchar(60) NOT NULL,
                "supplier_unit" varchar(6) NOT NULL,
                "supplier_description" varchar(120),
                "gtin" varchar(14),
                "product_id" integer NOT NULL,
                "conversion_factor" varchar(17) NOT NULL DEFAULT ('1.000000'),
                "use_count" integer NOT NULL DEFAULT (0),
                "last_used_at" datetime,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_product_map_entry_product" ON "product_map_entry" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_product_map_entry_supplier_code" ON "product_map_entry" (
                "company_id",
                "supplier_document",
                "supplier_product_code"
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "product_search_term" (
                "company_id" integer NOT NULL,
                "token" varchar(40) NOT NULL,
                "product_count" integer NOT NULL,
                PRIMARY KEY ("company_id", "token")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "product_search_token" (
                "company_id" integer NOT NULL,
                "token" varchar(40) NOT NULL,
                "product_id" integer NOT NULL,
                "code" varchar(30) NOT NULL,
                PRIMARY KEY ("company_id", "token", "product_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_product_search_token_product" ON "product_search_token" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "quick_sale_configuration" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "enabled" boolean NOT NULL DEFAULT (0),
                "default_customer_id" integer,
                "default_seller_id" integer,
                "payment_methods" text NOT NULL,
                "default_payment_method" varchar(30),
                "allow_negative_stock" boolean NOT NULL DEFAULT (0),
                "require_customer" boolean NOT NULL DEFAULT (0),
                "max_discount_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_quick_sale_configuration_filial" ON "quick_sale_configuration" ("company_id", "filial_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sale_payment" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "payment_method_id" integer NOT NULL,
                "method_code" varchar(30) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "change_given" varchar(17) NOT NULL DEFAULT ('0.00'),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sale_payment_order" ON "sale_payment" ("company_id", "sales_order_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sales_return_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "return_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "sales_order_item_id" integer NOT NULL,
                "product_id" integer NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "restock" boolean NOT NULL,
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "refund_amount" varchar(17) NOT NULL DEFAULT ('0.00')
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_item_order_item" ON "sales_return_item" ("company_id", "sales_order_item_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_item_return" ON "sales_return_item" ("company_id", "return_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sales_return" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "code" integer NOT NULL,
                "customer_id" integer NOT NULL,
                "reason" varchar(500) NOT NULL,
                "refund_method" varchar(30) NOT NULL,
                "refund_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "actor" varchar(100) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_customer" ON "sales_return" ("company_id", "filial_id", "customer_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_filial" ON "sales_return" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sales_return_code" ON "sales_return" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE TABLE "fulfillment_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "fulfillment_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "sales_order_item_id" integer NOT NULL,
                "product_id" integer NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000')
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_fulfillment_item_order_item" ON "fulfillment_item" ("company_id", "sales_order_item_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_fulfillment_item_fulfillment" ON "fulfillment_item" ("company_id", "fulfillment_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "fulfillment" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "actor" varchar(100),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_fulfillment_order" ON "fulfillment" ("company_id", "sales_order_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sales_order_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "product_id" integer NOT NULL,
                "description" varchar(200) NOT NULL,
                "unit" varchar(6) NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_price" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "order_discount_share" varchar(17) NOT NULL DEFAULT ('0.00'),
                "fulfilled_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "returned_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "cancelled_quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "origins" text
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_item_product" ON "sales_order_item" ("company_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_item_order" ON "sales_order_item" ("company_id", "sales_order_id", "line_number")
        `);
    await queryRunner.query(`
            CREATE TABLE "sales_order" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "code" integer NOT NULL,
                "type" varchar(10) NOT NULL,
                "flow_mode" varchar(12) NOT NULL DEFAULT ('STANDARD'),
                "status" varchar(20) NOT NULL,
                "customer_id" integer,
                "seller_id" integer,
                "alias" varchar(60),
                "search_alias" varchar(60),
                "notes" varchar(1000),
                "gross_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "items_discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "discount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "valid_until" date,
                "grouped_into_id" integer,
                "cancel_reason" varchar(500),
                "cancelled_at" datetime,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_grouped_into" ON "sales_order" ("company_id", "grouped_into_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created" ON "sales_order" ("company_id", "filial_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_alias" ON "sales_order" ("company_id", "filial_id", "search_alias")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_seller" ON "sales_order" ("company_id", "filial_id", "seller_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_customer" ON "sales_order" ("company_id", "filial_id", "customer_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_status" ON "sales_order" ("company_id", "filial_id", "status", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_code" ON "sales_order" ("company_id", "filial_id", "code")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sales_order_company_code" ON "sales_order" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE TABLE "sefaz_dfe_log" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "service" varchar(20) NOT NULL,
                "operation" varchar(20) NOT NULL,
                "endpoint" varchar(300) NOT NULL,
                "attempt" integer NOT NULL DEFAULT (1),
                "request_gz" blob NOT NULL,
                "response_gz" blob,
                "http_status" integer,
                "cStat" varchar(3),
                "x_motivo" varchar(255),
                "error" varchar(300),
                "duration_ms" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sefaz_dfe_log_filial" ON "sefaz_dfe_log" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sefaz_certificate" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "subject" varchar(500) NOT NULL,
                "issuer" varchar(500) NOT NULL,
                "cnpj" varchar(14),
                "serial_number" varchar(80) NOT NULL,
                "fingerprint" varchar(64) NOT NULL,
                "valid_from" datetime NOT NULL,
                "valid_to" datetime NOT NULL,
                "sealed" blob NOT NULL,
                "uploaded_by" varchar(100) NOT NULL,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_certificate_filial" ON "sefaz_certificate" ("company_id", "filial_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sefaz_dfe_state" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "ult_nsu" varchar(15) NOT NULL DEFAULT ('000000000000000'),
                "max_nsu" varchar(15) NOT NULL DEFAULT ('000000000000000'),
                "last_cstat" varchar(3),
                "last_xmotivo" varchar(255),
                "last_sync_at" datetime,
                "next_allowed_at" datetime,
                "pending_gaps" text,
                "lease_until" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_dfe_state_filial" ON "sefaz_dfe_state" ("company_id", "filial_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "stock_balance" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "product_id" integer NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "average_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_stock_balance" ON "stock_balance" ("company_id", "filial_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sefaz_endpoint" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "dist_url" varchar(300) NOT NULL,
                "event_url" varchar(300) NOT NULL,
                "ca_pem" text,
                "label" varchar(60) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_endpoint_filial" ON "sefaz_endpoint" ("company_id", "filial_id")
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
            CREATE INDEX "ix_stock_movement_reference" ON "stock_movement" ("company_id", "reference_type", "reference_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_movement_product" ON "stock_movement" ("company_id", "filial_id", "product_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "company" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "name" varchar(120) NOT NULL,
                "cnpj" varchar(14) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_company_cnpj" ON "company" ("cnpj")
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_filial_company_cnpj" ON "filial" ("company_id", "cnpj")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_filial_company_cnpj"
        `);
    await queryRunner.query(`
            DROP TABLE "filial"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_company_cnpj"
        `);
    await queryRunner.query(`
            DROP TABLE "company"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_movement_product"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_movement_reference"
        `);
    await queryRunner.query(`
            DROP TABLE "stock_movement"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_endpoint_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_endpoint"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_stock_balance"
        `);
    await queryRunner.query(`
            DROP TABLE "stock_balance"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_dfe_state_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_dfe_state"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_certificate_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_certificate"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sefaz_dfe_log_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_dfe_log"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sales_order_company_code"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_code"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_customer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_seller"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_alias"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_grouped_into"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_order"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_item_order"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_item_product"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_order_item"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_fulfillment_order"
        `);
    await queryRunner.query(`
            DROP TABLE "fulfillment"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_fulfillment_item_fulfillment"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_fulfillment_item_order_item"
        `);
    await queryRunner.query(`
            DROP TABLE "fulfillment_item"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sales_return_code"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_customer"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_return"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_item_return"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_item_order_item"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_return_item"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sale_payment_order"
        `);
    await queryRunner.query(`
            DROP TABLE "sale_payment"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_quick_sale_configuration_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "quick_sale_configuration"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_product_search_token_product"
        `);
    await queryRunner.query(`
            DROP TABLE "product_search_token"
        `);
    await queryRunner.query(`
            DROP TABLE "product_search_term"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_product_map_entry_supplier_code"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_product_map_entry_product"
        `);
    await queryRunner.query(`
            DROP TABLE "product_map_entry"
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
            DROP TABLE "payable"
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
            DROP TABLE "nfe_inbound"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_event_inbound"
        `);
    await queryRunner.query(`
            DROP TABLE "nfe_inbound_event"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_subscription_company"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_subscription_active"
        `);
    await queryRunner.query(`
            DROP TABLE "webhook_subscription"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_webhook_delivery"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_delivery_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_delivery_company"
        `);
    await queryRunner.query(`
            DROP TABLE "webhook_delivery"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_entry_document_access_key"
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
            DROP TABLE "entry_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_item_product"
        `);
    await queryRunner.query(`
            DROP TABLE "entry_document_item"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_supplier_company_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_supplier_company_name"
        `);
    await queryRunner.query(`
            DROP TABLE "supplier"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_entry_document_installment_document"
        `);
    await queryRunner.query(`
            DROP TABLE "entry_document_installment"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_seller_company_name"
        `);
    await queryRunner.query(`
            DROP TABLE "seller"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_product_company_code"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_product_company_gtin"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_product_company_search"
        `);
    await queryRunner.query(`
            DROP TABLE "product"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_payment_method_company_code"
        `);
    await queryRunner.query(`
            DROP TABLE "payment_method"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_name"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_trade"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_document"
        `);
    await queryRunner.query(`
            DROP TABLE "customer"
        `);
    await queryRunner.query(`
            DROP TABLE "sequence"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_outbox_company"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_outbox_company_type"
        `);
    await queryRunner.query(`
            DROP TABLE "outbox_event"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_idempotency_key"
        `);
    await queryRunner.query(`
            DROP TABLE "idempotency_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_audit_entity"
        `);
    await queryRunner.query(`
            DROP TABLE "audit_log"
        `);
  }
}
