import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderInsuranceOtherExpenses1796228860178 implements MigrationInterface {
  name = 'OrderInsuranceOtherExpenses1796228860178';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
            DROP INDEX "ix_sales_order_grouped_into"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created_day"
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
                "payment_terms" varchar(120),
                "created_day" date,
                "final_consumer" boolean,
                "insurance" varchar(17) NOT NULL DEFAULT ('0.00'),
                "other_expenses" varchar(17) NOT NULL DEFAULT ('0.00')
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
                    "updated_at",
                    "payment_terms",
                    "created_day",
                    "final_consumer"
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
                "updated_at",
                "payment_terms",
                "created_day",
                "final_consumer"
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
            CREATE INDEX "ix_sales_order_grouped_into" ON "sales_order" ("company_id", "grouped_into_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created" ON "sales_order" (
                "company_id",
                "filial_id",
                "created_at",
                "id",
                "code"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created_day" ON "sales_order" ("company_id", "filial_id", "created_day", "code")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created_day"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_grouped_into"
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "payment_terms" varchar(120),
                "created_day" date,
                "final_consumer" boolean
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
                    "updated_at",
                    "payment_terms",
                    "created_day",
                    "final_consumer"
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
                "updated_at",
                "payment_terms",
                "created_day",
                "final_consumer"
            FROM "temporary_sales_order"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sales_order"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created_day" ON "sales_order" ("company_id", "filial_id", "created_day", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created" ON "sales_order" (
                "company_id",
                "filial_id",
                "created_at",
                "id",
                "code"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_grouped_into" ON "sales_order" ("company_id", "grouped_into_id")
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
  }
}
