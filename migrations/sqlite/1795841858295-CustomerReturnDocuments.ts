import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerReturnDocuments1795841858295 implements MigrationInterface {
  name = 'CustomerReturnDocuments1795841858295';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "sales_return_tax_credit" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "return_id" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "tax" varchar(6) NOT NULL,
                "base" varchar(17) NOT NULL DEFAULT ('0.00'),
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "tax_regime" varchar(20) NOT NULL,
                "entry_date" date NOT NULL,
                "status" varchar(10) NOT NULL,
                "reversed_at" datetime,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_tax_credit_filial" ON "sales_return_tax_credit" ("company_id", "filial_id", "entry_date")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_tax_credit_return" ON "sales_return_tax_credit" ("company_id", "return_id", "tax")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_item_return"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_item_order_item"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_sales_return_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "return_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "sales_order_item_id" integer NOT NULL,
                "product_id" integer NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "restock" boolean NOT NULL,
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "refund_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "fiscal_origins" text
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_sales_return_item"(
                    "id",
                    "company_id",
                    "return_id",
                    "sales_order_id",
                    "sales_order_item_id",
                    "product_id",
                    "quantity",
                    "restock",
                    "unit_cost",
                    "refund_amount"
                )
            SELECT "id",
                "company_id",
                "return_id",
                "sales_order_id",
                "sales_order_item_id",
                "product_id",
                "quantity",
                "restock",
                "unit_cost",
                "refund_amount"
            FROM "sales_return_item"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_return_item"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_sales_return_item"
                RENAME TO "sales_return_item"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_item_return" ON "sales_return_item" ("company_id", "return_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_item_order_item" ON "sales_return_item" ("company_id", "sales_order_item_id")
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
            CREATE TABLE "temporary_sales_return" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "code" integer NOT NULL,
                "customer_id" integer NOT NULL,
                "reason" varchar(500) NOT NULL,
                "refund_method" varchar(30) NOT NULL,
                "refund_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "actor" varchar(100) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "origin" varchar(10) NOT NULL DEFAULT ('COUNTER'),
                "imported_access_key" varchar(44)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_sales_return"(
                    "id",
                    "company_id",
                    "filial_id",
                    "code",
                    "customer_id",
                    "reason",
                    "refund_method",
                    "refund_amount",
                    "actor",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "code",
                "customer_id",
                "reason",
                "refund_method",
                "refund_amount",
                "actor",
                "created_at"
            FROM "sales_return"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_return"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_sales_return"
                RENAME TO "sales_return"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sales_return_code" ON "sales_return" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_filial" ON "sales_return" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_customer" ON "sales_return" ("company_id", "filial_id", "customer_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sales_return_imported_key" ON "sales_return" ("company_id", "imported_access_key")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_sales_return_imported_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_customer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sales_return_code"
        `);
    await queryRunner.query(`
            ALTER TABLE "sales_return"
                RENAME TO "temporary_sales_return"
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
            INSERT INTO "sales_return"(
                    "id",
                    "company_id",
                    "filial_id",
                    "code",
                    "customer_id",
                    "reason",
                    "refund_method",
                    "refund_amount",
                    "actor",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "code",
                "customer_id",
                "reason",
                "refund_method",
                "refund_amount",
                "actor",
                "created_at"
            FROM "temporary_sales_return"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sales_return"
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
            DROP INDEX "ix_sales_return_item_order_item"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_item_return"
        `);
    await queryRunner.query(`
            ALTER TABLE "sales_return_item"
                RENAME TO "temporary_sales_return_item"
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
            INSERT INTO "sales_return_item"(
                    "id",
                    "company_id",
                    "return_id",
                    "sales_order_id",
                    "sales_order_item_id",
                    "product_id",
                    "quantity",
                    "restock",
                    "unit_cost",
                    "refund_amount"
                )
            SELECT "id",
                "company_id",
                "return_id",
                "sales_order_id",
                "sales_order_item_id",
                "product_id",
                "quantity",
                "restock",
                "unit_cost",
                "refund_amount"
            FROM "temporary_sales_return_item"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sales_return_item"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_item_order_item" ON "sales_return_item" ("company_id", "sales_order_item_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_return_item_return" ON "sales_return_item" ("company_id", "return_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_tax_credit_return"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_tax_credit_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "sales_return_tax_credit"
        `);
  }
}
