import { MigrationInterface, QueryRunner } from 'typeorm';

export class CashSessions1796231339619 implements MigrationInterface {
  name = 'CashSessions1796231339619';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "cash_movement" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "cash_session_id" integer NOT NULL,
                "type" varchar(20) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "reason" varchar(255) NOT NULL,
                "created_by" varchar(64) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cash_movement_session" ON "cash_movement" ("company_id", "cash_session_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "cash_session" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "terminal_id" varchar(20) NOT NULL,
                "open_terminal" varchar(20),
                "operator_id" varchar(64) NOT NULL,
                "status" varchar(20) NOT NULL,
                "opening_float" varchar(17) NOT NULL DEFAULT ('0.00'),
                "previous_session_id" integer,
                "previous_closing_cash" varchar(17),
                "opening_difference" varchar(17),
                "opened_at" datetime NOT NULL,
                "opened_by" varchar(64) NOT NULL,
                "closed_at" datetime,
                "closed_by" varchar(64),
                "closing" text,
                "expected_cash" varchar(17),
                "counted_cash" varchar(17),
                "closing_difference" varchar(17),
                "with_difference" boolean NOT NULL DEFAULT (0),
                "difference_limit" varchar(17),
                "approved_at" datetime,
                "approved_by" varchar(64),
                "approval_note" varchar(255),
                "reopen_count" integer NOT NULL DEFAULT (0),
                "reopened_at" datetime,
                "reopen_reason" varchar(255),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cash_session_difference" ON "cash_session" (
                "company_id",
                "filial_id",
                "with_difference",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cash_session_status" ON "cash_session" ("status")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cash_session_filial_opened" ON "cash_session" ("company_id", "filial_id", "opened_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_cash_session_terminal" ON "cash_session" ("company_id", "filial_id", "terminal_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_cash_session_open_terminal" ON "cash_session" ("company_id", "filial_id", "open_terminal")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_quick_sale_configuration_filial"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_quick_sale_configuration" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "require_cash_session" boolean NOT NULL DEFAULT (0),
                "cash_difference_limit" varchar(17) NOT NULL DEFAULT ('0.00')
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_quick_sale_configuration"(
                    "id",
                    "company_id",
                    "filial_id",
                    "enabled",
                    "default_customer_id",
                    "default_seller_id",
                    "payment_methods",
                    "default_payment_method",
                    "allow_negative_stock",
                    "require_customer",
                    "max_discount_percent",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "enabled",
                "default_customer_id",
                "default_seller_id",
                "payment_methods",
                "default_payment_method",
                "allow_negative_stock",
                "require_customer",
                "max_discount_percent",
                "version",
                "created_at",
                "updated_at"
            FROM "quick_sale_configuration"
        `);
    await queryRunner.query(`
            DROP TABLE "quick_sale_configuration"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_quick_sale_configuration"
                RENAME TO "quick_sale_configuration"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_quick_sale_configuration_filial" ON "quick_sale_configuration" ("company_id", "filial_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sale_payment_order"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_sale_payment" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "payment_method_id" integer NOT NULL,
                "method_code" varchar(30) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "change_given" varchar(17) NOT NULL DEFAULT ('0.00'),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "cash_session_id" integer,
                "tp_integra" varchar(1),
                "institution_cnpj" varchar(14),
                "card_brand" varchar(2),
                "authorization_code" varchar(128),
                "nsu" varchar(40),
                "end_to_end_id" varchar(32),
                "pix_static" boolean NOT NULL DEFAULT (0),
                "payer_cnpj" varchar(14),
                "payer_uf" varchar(2)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_sale_payment"(
                    "id",
                    "company_id",
                    "sales_order_id",
                    "payment_method_id",
                    "method_code",
                    "amount",
                    "change_given",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "sales_order_id",
                "payment_method_id",
                "method_code",
                "amount",
                "change_given",
                "created_at"
            FROM "sale_payment"
        `);
    await queryRunner.query(`
            DROP TABLE "sale_payment"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_sale_payment"
                RENAME TO "sale_payment"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sale_payment_order" ON "sale_payment" ("company_id", "sales_order_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_customer_due"
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
            CREATE TABLE "temporary_receivable" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "nsu" varchar(40),
                "authorization_code" varchar(128),
                "card_brand" varchar(2),
                "acquirer_cnpj" varchar(14)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_receivable"(
                    "id",
                    "company_id",
                    "filial_id",
                    "debtor_type",
                    "customer_id",
                    "payment_method_id",
                    "payment_method_code",
                    "origin_type",
                    "sales_order_id",
                    "sales_order_code",
                    "fulfillment_id",
                    "fiscal_document_id",
                    "access_key",
                    "installment_number",
                    "installment_count",
                    "issue_date",
                    "due_date",
                    "gross_amount",
                    "fee_percent",
                    "fee_amount",
                    "amount",
                    "received_amount",
                    "credited_amount",
                    "status",
                    "cancelled_at",
                    "cancel_reason",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "debtor_type",
                "customer_id",
                "payment_method_id",
                "payment_method_code",
                "origin_type",
                "sales_order_id",
                "sales_order_code",
                "fulfillment_id",
                "fiscal_document_id",
                "access_key",
                "installment_number",
                "installment_count",
                "issue_date",
                "due_date",
                "gross_amount",
                "fee_percent",
                "fee_amount",
                "amount",
                "received_amount",
                "credited_amount",
                "status",
                "cancelled_at",
                "cancel_reason",
                "version",
                "created_at",
                "updated_at"
            FROM "receivable"
        `);
    await queryRunner.query(`
            DROP TABLE "receivable"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_receivable"
                RENAME TO "receivable"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_customer_due" ON "receivable" (
                "company_id",
                "filial_id",
                "customer_id",
                "due_date",
                "id",
                "status",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_due" ON "receivable" (
                "company_id",
                "filial_id",
                "due_date",
                "id",
                "status",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_status_due" ON "receivable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_fulfillment" ON "receivable" (
                "company_id",
                "fulfillment_id",
                "installment_number"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_order" ON "receivable" ("company_id", "sales_order_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sale_payment_session" ON "sale_payment" ("company_id", "cash_session_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_nsu" ON "receivable" ("company_id", "nsu")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_receivable_nsu"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sale_payment_session"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_order"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_fulfillment"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_status_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_customer_due"
        `);
    await queryRunner.query(`
            ALTER TABLE "receivable"
                RENAME TO "temporary_receivable"
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
            INSERT INTO "receivable"(
                    "id",
                    "company_id",
                    "filial_id",
                    "debtor_type",
                    "customer_id",
                    "payment_method_id",
                    "payment_method_code",
                    "origin_type",
                    "sales_order_id",
                    "sales_order_code",
                    "fulfillment_id",
                    "fiscal_document_id",
                    "access_key",
                    "installment_number",
                    "installment_count",
                    "issue_date",
                    "due_date",
                    "gross_amount",
                    "fee_percent",
                    "fee_amount",
                    "amount",
                    "received_amount",
                    "credited_amount",
                    "status",
                    "cancelled_at",
                    "cancel_reason",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "debtor_type",
                "customer_id",
                "payment_method_id",
                "payment_method_code",
                "origin_type",
                "sales_order_id",
                "sales_order_code",
                "fulfillment_id",
                "fiscal_document_id",
                "access_key",
                "installment_number",
                "installment_count",
                "issue_date",
                "due_date",
                "gross_amount",
                "fee_percent",
                "fee_amount",
                "amount",
                "received_amount",
                "credited_amount",
                "status",
                "cancelled_at",
                "cancel_reason",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_receivable"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_receivable"
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
                "id",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_due" ON "receivable" (
                "company_id",
                "filial_id",
                "due_date",
                "id",
                "status",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_customer_due" ON "receivable" (
                "company_id",
                "filial_id",
                "customer_id",
                "due_date",
                "id",
                "status",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sale_payment_order"
        `);
    await queryRunner.query(`
            ALTER TABLE "sale_payment"
                RENAME TO "temporary_sale_payment"
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
            INSERT INTO "sale_payment"(
                    "id",
                    "company_id",
                    "sales_order_id",
                    "payment_method_id",
                    "method_code",
                    "amount",
                    "change_given",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "sales_order_id",
                "payment_method_id",
                "method_code",
                "amount",
                "change_given",
                "created_at"
            FROM "temporary_sale_payment"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sale_payment"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sale_payment_order" ON "sale_payment" ("company_id", "sales_order_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_quick_sale_configuration_filial"
        `);
    await queryRunner.query(`
            ALTER TABLE "quick_sale_configuration"
                RENAME TO "temporary_quick_sale_configuration"
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
            INSERT INTO "quick_sale_configuration"(
                    "id",
                    "company_id",
                    "filial_id",
                    "enabled",
                    "default_customer_id",
                    "default_seller_id",
                    "payment_methods",
                    "default_payment_method",
                    "allow_negative_stock",
                    "require_customer",
                    "max_discount_percent",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "enabled",
                "default_customer_id",
                "default_seller_id",
                "payment_methods",
                "default_payment_method",
                "allow_negative_stock",
                "require_customer",
                "max_discount_percent",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_quick_sale_configuration"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_quick_sale_configuration"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_quick_sale_configuration_filial" ON "quick_sale_configuration" ("company_id", "filial_id")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_cash_session_open_terminal"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cash_session_terminal"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cash_session_filial_opened"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cash_session_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cash_session_difference"
        `);
    await queryRunner.query(`
            DROP TABLE "cash_session"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_cash_movement_session"
        `);
    await queryRunner.query(`
            DROP TABLE "cash_movement"
        `);
  }
}
