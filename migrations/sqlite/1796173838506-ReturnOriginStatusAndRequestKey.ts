import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReturnOriginStatusAndRequestKey1796173838506 implements MigrationInterface {
  name = 'ReturnOriginStatusAndRequestKey1796173838506';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
                "imported_access_key" varchar(44),
                "origin_status" varchar(10) NOT NULL DEFAULT ('RESOLVED'),
                "request_key" varchar(255)
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
                    "created_at",
                    "origin",
                    "imported_access_key"
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
                "created_at",
                "origin",
                "imported_access_key"
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
            CREATE UNIQUE INDEX "uq_sales_return_imported_key" ON "sales_return" ("company_id", "imported_access_key")
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
            CREATE INDEX "ix_sales_return_origin_status" ON "sales_return" ("origin_status", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sales_return_request_key" ON "sales_return" ("company_id", "request_key")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_sales_return_request_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sales_return_origin_status"
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
            DROP INDEX "uq_sales_return_imported_key"
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
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "origin" varchar(10) NOT NULL DEFAULT ('COUNTER'),
                "imported_access_key" varchar(44)
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
                    "created_at",
                    "origin",
                    "imported_access_key"
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
                "created_at",
                "origin",
                "imported_access_key"
            FROM "temporary_sales_return"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sales_return"
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
}
