import { MigrationInterface, QueryRunner } from 'typeorm';

export class Receivables1795820007300 implements MigrationInterface {
  name = 'Receivables1795820007300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "customer_credit" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "customer_id" integer NOT NULL,
                "return_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "kind" varchar(10) NOT NULL,
                "method_code" varchar(30) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "actor" varchar(100) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_credit_return" ON "customer_credit" ("company_id", "return_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_credit_customer" ON "customer_credit" ("company_id", "customer_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "receivable_receipt" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "receivable_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "receipt_date" date NOT NULL,
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
            CREATE INDEX "ix_receivable_receipt_filial_date" ON "receivable_receipt" ("company_id", "filial_id", "receipt_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_receipt_receivable" ON "receivable_receipt" ("company_id", "receivable_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "receivable" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "debtor_type" varchar(10) NOT NULL,
                "customer_id" integer,
                "payment_method_id" integer,
                "payment_method_code" varchar(30),
                "origin_type" varchar(16) NOT NULL,
                "sales_order_id" integer NOT NULL,
                "sales_order_code" integer NOT NULL,
                "fulfillment_id" integer NOT NULL,
                "fiscal_document_id" integer,
                "access_key" varchar(44),
                "installment_number" integer NOT NULL,
                "installment_count" integer NOT NULL,
                "issue_date" date NOT NULL,
                "due_date" date NOT NULL,
                "gross_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "fee_percent" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "fee_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "received_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credited_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(20) NOT NULL,
                "cancelled_at" datetime,
                "cancel_reason" varchar(255),
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_customer" ON "receivable" ("company_id", "customer_id", "due_date", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_order" ON "receivable" ("company_id", "sales_order_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_fulfillment" ON "receivable" (
                "company_id",
                "fulfillment_id",
                "installment_number"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_status_due" ON "receivable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_due" ON "receivable" ("company_id", "filial_id", "due_date", "id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_payment_method_company_code"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_payment_method" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "code" varchar(30) NOT NULL,
                "name" varchar(80) NOT NULL,
                "kind" varchar(20) NOT NULL,
                "gives_change" boolean NOT NULL DEFAULT (0),
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "settlement" varchar(10),
                "settlement_days" integer,
                "fee_percent" varchar(9) NOT NULL DEFAULT ('0.0000')
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_payment_method"(
                    "id",
                    "company_id",
                    "code",
                    "name",
                    "kind",
                    "gives_change",
                    "active",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "code",
                "name",
                "kind",
                "gives_change",
                "active",
                "created_at"
            FROM "payment_method"
        `);
    await queryRunner.query(`
            DROP TABLE "payment_method"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_payment_method"
                RENAME TO "payment_method"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_payment_method_company_code" ON "payment_method" ("company_id", "code")
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
            CREATE TABLE "temporary_sales_order" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "payment_terms" varchar(120)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_sales_order"(
                    "id",
                    "company_id",
                    "filial_id",
                    "code",
                    "type",
                    "flow_mode",
                    "status",
                    "customer_id",
                    "seller_id",
                    "alias",
                    "search_alias",
                    "notes",
                    "gross_total",
                    "items_discount",
                    "discount",
                    "freight",
                    "total",
                    "valid_until",
                    "grouped_into_id",
                    "cancel_reason",
                    "cancelled_at",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "code",
                "type",
                "flow_mode",
                "status",
                "customer_id",
                "seller_id",
                "alias",
                "search_alias",
                "notes",
                "gross_total",
                "items_discount",
                "discount",
                "freight",
                "total",
                "valid_until",
                "grouped_into_id",
                "cancel_reason",
                "cancelled_at",
                "version",
                "created_at",
                "updated_at"
            FROM "sales_order"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_order"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_sales_order"
                RENAME TO "sales_order"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sales_order_company_code" ON "sales_order" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_code" ON "sales_order" ("company_id", "filial_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_status" ON "sales_order" ("company_id", "filial_id", "status", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_customer" ON "sales_order" ("company_id", "filial_id", "customer_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_seller" ON "sales_order" ("company_id", "filial_id", "seller_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_alias" ON "sales_order" ("company_id", "filial_id", "search_alias")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created" ON "sales_order" ("company_id", "filial_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_grouped_into" ON "sales_order" ("company_id", "grouped_into_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_grouped_into"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_alias"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_seller"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_customer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_code"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sales_order_company_code"
        `);
    await queryRunner.query(`
            ALTER TABLE "sales_order"
                RENAME TO "temporary_sales_order"
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
            INSERT INTO "sales_order"(
                    "id",
                    "company_id",
                    "filial_id",
                    "code",
                    "type",
                    "flow_mode",
                    "status",
                    "customer_id",
                    "seller_id",
                    "alias",
                    "search_alias",
                    "notes",
                    "gross_total",
                    "items_discount",
                    "discount",
                    "freight",
                    "total",
                    "valid_until",
                    "grouped_into_id",
                    "cancel_reason",
                    "cancelled_at",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "code",
                "type",
                "flow_mode",
                "status",
                "customer_id",
                "seller_id",
                "alias",
                "search_alias",
                "notes",
                "gross_total",
                "items_discount",
                "discount",
                "freight",
                "total",
                "valid_until",
                "grouped_into_id",
                "cancel_reason",
                "cancelled_at",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_sales_order"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sales_order"
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
            DROP INDEX "uq_payment_method_company_code"
        `);
    await queryRunner.query(`
            ALTER TABLE "payment_method"
                RENAME TO "temporary_payment_method"
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
            INSERT INTO "payment_method"(
                    "id",
                    "company_id",
                    "code",
                    "name",
                    "kind",
                    "gives_change",
                    "active",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "code",
                "name",
                "kind",
                "gives_change",
                "active",
                "created_at"
            FROM "temporary_payment_method"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_payment_method"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_payment_method_company_code" ON "payment_method" ("company_id", "code")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_status_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_fulfillment"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_order"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_customer"
        `);
    await queryRunner.query(`
            DROP TABLE "receivable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_receipt_receivable"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_receipt_filial_date"
        `);
    await queryRunner.query(`
            DROP TABLE "receivable_receipt"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_credit_customer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_credit_return"
        `);
    await queryRunner.query(`
            DROP TABLE "customer_credit"
        `);
  }
}
