import { MigrationInterface, QueryRunner } from 'typeorm';

export class TenantSettings1795441753811 implements MigrationInterface {
  name = 'TenantSettings1795441753811';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_company_cnpj"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_company" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "name" varchar(120) NOT NULL,
                "cnpj" varchar(14) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "purchase_quantity_tolerance_pct" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "purchase_price_tolerance_pct" varchar(9) NOT NULL DEFAULT ('2.0000'),
                "purchase_tolerance_mode" varchar(5) NOT NULL DEFAULT ('BLOCK')
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_company"("id", "name", "cnpj", "active", "created_at")
            SELECT "id",
                "name",
                "cnpj",
                "active",
                "created_at"
            FROM "company"
        `);
    await queryRunner.query(`
            DROP TABLE "company"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_company"
                RENAME TO "company"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_company_cnpj" ON "company" ("cnpj")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_filial_company_cnpj"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_filial" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "tax_regime" varchar(20) NOT NULL DEFAULT ('SIMPLES_NACIONAL'),
                "dfe_sync_enabled" boolean NOT NULL DEFAULT (0),
                "dfe_sync_interval_minutes" integer NOT NULL DEFAULT (60)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_filial"(
                    "id",
                    "company_id",
                    "name",
                    "cnpj",
                    "state_registration",
                    "uf",
                    "nfe_environment",
                    "allow_negative_stock",
                    "auto_ciencia",
                    "active",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "name",
                "cnpj",
                "state_registration",
                "uf",
                "nfe_environment",
                "allow_negative_stock",
                "auto_ciencia",
                "active",
                "created_at",
                "updated_at"
            FROM "filial"
        `);
    await queryRunner.query(`
            DROP TABLE "filial"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_filial"
                RENAME TO "filial"
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
            ALTER TABLE "filial"
                RENAME TO "temporary_filial"
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
            INSERT INTO "filial"(
                    "id",
                    "company_id",
                    "name",
                    "cnpj",
                    "state_registration",
                    "uf",
                    "nfe_environment",
                    "allow_negative_stock",
                    "auto_ciencia",
                    "active",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "name",
                "cnpj",
                "state_registration",
                "uf",
                "nfe_environment",
                "allow_negative_stock",
                "auto_ciencia",
                "active",
                "created_at",
                "updated_at"
            FROM "temporary_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_filial"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_filial_company_cnpj" ON "filial" ("company_id", "cnpj")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_company_cnpj"
        `);
    await queryRunner.query(`
            ALTER TABLE "company"
                RENAME TO "temporary_company"
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
            INSERT INTO "company"("id", "name", "cnpj", "active", "created_at")
            SELECT "id",
                "name",
                "cnpj",
                "active",
                "created_at"
            FROM "temporary_company"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_company"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_company_cnpj" ON "company" ("cnpj")
        `);
  }
}
