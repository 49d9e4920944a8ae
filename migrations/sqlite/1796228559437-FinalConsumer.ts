import { MigrationInterface, QueryRunner } from 'typeorm';

export class FinalConsumer1796228559437 implements MigrationInterface {
  name = 'FinalConsumer1796228559437';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_trade"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_name"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_customer" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "person_type" varchar(8),
                "ie_indicator" integer NOT NULL DEFAULT (9),
                "state_registration" varchar(14),
                "address_street" varchar(60),
                "address_number" varchar(60),
                "address_complement" varchar(60),
                "address_district" varchar(60),
                "municipality_code" varchar(7),
                "municipality_name" varchar(60),
                "uf" varchar(2),
                "postal_code" varchar(8),
                "country_code" varchar(4) NOT NULL DEFAULT ('1058'),
                "country_name" varchar(60) NOT NULL DEFAULT ('BRASIL'),
                "final_consumer" boolean
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_customer"(
                    "id",
                    "company_id",
                    "name",
                    "trade_name",
                    "search_name",
                    "search_trade_name",
                    "document",
                    "email",
                    "phone",
                    "active",
                    "version",
                    "created_at",
                    "updated_at",
                    "person_type",
                    "ie_indicator",
                    "state_registration",
                    "address_street",
                    "address_number",
                    "address_complement",
                    "address_district",
                    "municipality_code",
                    "municipality_name",
                    "uf",
                    "postal_code",
                    "country_code",
                    "country_name"
                )
            SELECT "id",
                "company_id",
                "name",
                "trade_name",
                "search_name",
                "search_trade_name",
                "document",
                "email",
                "phone",
                "active",
                "version",
                "created_at",
                "updated_at",
                "person_type",
                "ie_indicator",
                "state_registration",
                "address_street",
                "address_number",
                "address_complement",
                "address_district",
                "municipality_code",
                "municipality_name",
                "uf",
                "postal_code",
                "country_code",
                "country_name"
            FROM "customer"
        `);
    await queryRunner.query(`
            DROP TABLE "customer"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_customer"
                RENAME TO "customer"
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
                "final_consumer" boolean
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
                    "created_day"
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
                "created_day"
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

  public async down(queryRunner: QueryRunner): Promise<void> {
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
                "created_day" date
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
                    "created_day"
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
                "created_day"
            FROM "temporary_sales_order"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sales_order"
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
            ALTER TABLE "customer"
                RENAME TO "temporary_customer"
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "person_type" varchar(8),
                "ie_indicator" integer NOT NULL DEFAULT (9),
                "state_registration" varchar(14),
                "address_street" varchar(60),
                "address_number" varchar(60),
                "address_complement" varchar(60),
                "address_district" varchar(60),
                "municipality_code" varchar(7),
                "municipality_name" varchar(60),
                "uf" varchar(2),
                "postal_code" varchar(8),
                "country_code" varchar(4) NOT NULL DEFAULT ('1058'),
                "country_name" varchar(60) NOT NULL DEFAULT ('BRASIL')
            )
        `);
    await queryRunner.query(`
            INSERT INTO "customer"(
                    "id",
                    "company_id",
                    "name",
                    "trade_name",
                    "search_name",
                    "search_trade_name",
                    "document",
                    "email",
                    "phone",
                    "active",
                    "version",
                    "created_at",
                    "updated_at",
                    "person_type",
                    "ie_indicator",
                    "state_registration",
                    "address_street",
                    "address_number",
                    "address_complement",
                    "address_district",
                    "municipality_code",
                    "municipality_name",
                    "uf",
                    "postal_code",
                    "country_code",
                    "country_name"
                )
            SELECT "id",
                "company_id",
                "name",
                "trade_name",
                "search_name",
                "search_trade_name",
                "document",
                "email",
                "phone",
                "active",
                "version",
                "created_at",
                "updated_at",
                "person_type",
                "ie_indicator",
                "state_registration",
                "address_street",
                "address_number",
                "address_complement",
                "address_district",
                "municipality_code",
                "municipality_name",
                "uf",
                "postal_code",
                "country_code",
                "country_name"
            FROM "temporary_customer"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_customer"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_name" ON "customer" ("company_id", "search_name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_trade" ON "customer" ("company_id", "search_trade_name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_document" ON "customer" ("company_id", "document")
        `);
  }
}
