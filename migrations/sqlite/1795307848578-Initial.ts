import { MigrationInterface, QueryRunner } from "typeorm";

export class Initial1795307848578 implements MigrationInterface {
    name = 'Initial1795307848578'

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
            DROP INDEX "uq_stock_balance"
        `);
        await queryRunner.query(`
            DROP TABLE "stock_balance"
        `);
        await queryRunner.query(`
            DROP INDEX "uq_quick_sale_configuration_filial"
        `);
        await queryRunner.query(`
            DROP TABLE "quick_sale_configuration"
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
            DROP INDEX "uq_supplier_company_document"
        `);
        await queryRunner.query(`
            DROP INDEX "ix_supplier_company_name"
        `);
        await queryRunner.query(`
            DROP TABLE "supplier"
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
