import { MigrationInterface, QueryRunner } from 'typeorm';
import { insertFiscalShippedData } from '../fiscal-shipped-data';

export class FiscalEngine1795819210868 implements MigrationInterface {
  name = 'FiscalEngine1795819210868';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "fiscal_approximate_tax" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "ncm" varchar(8) NOT NULL,
                "ex" varchar(3) NOT NULL DEFAULT (''),
                "federal_national_rate" varchar(9) NOT NULL,
                "federal_imported_rate" varchar(9) NOT NULL,
                "state_rate" varchar(9) NOT NULL,
                "municipal_rate" varchar(9) NOT NULL,
                "valid_from" date NOT NULL,
                "valid_to" date NOT NULL,
                "table_version" varchar(20) NOT NULL,
                "source" varchar(60) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_approximate_tax_ncm" ON "fiscal_approximate_tax" ("company_id", "ncm", "ex")
        `);
    await queryRunner.query(`
            CREATE TABLE "fiscal_operation_rule" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "tax_group_id" integer NOT NULL,
                "operation" varchar(10) NOT NULL,
                "destination" varchar(12) NOT NULL,
                "contributor" boolean NOT NULL,
                "valid_from" date NOT NULL,
                "valid_to" date,
                "cfop" varchar(4) NOT NULL,
                "operation_nature" varchar(60),
                "icms_cst" varchar(2),
                "csosn" varchar(3),
                "icms_base_reduction" varchar(9),
                "icms_rate" varchar(9),
                "st_mode" varchar(14) NOT NULL DEFAULT ('NONE'),
                "st_mva" varchar(9),
                "st_base_reduction" varchar(9),
                "pis_cst" varchar(2),
                "pis_rate" varchar(9),
                "cofins_cst" varchar(2),
                "cofins_rate" varchar(9),
                "ipi_cst" varchar(2),
                "ipi_rate" varchar(9),
                "ipi_enquadramento" varchar(3),
                "ibs_cbs_cst" varchar(3),
                "ibs_cbs_class" varchar(6),
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_operation_rule_key" ON "fiscal_operation_rule" (
                "company_id",
                "tax_group_id",
                "operation",
                "destination",
                "contributor",
                "valid_from"
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "fiscal_rule_set" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "code" varchar(10) NOT NULL,
                "valid_from" date NOT NULL,
                "valid_to" date,
                "pis_cofins" boolean NOT NULL,
                "ibs_cbs" boolean NOT NULL,
                "ibs_cbs_informative" boolean NOT NULL,
                "cbs_rate" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "ibs_uf_rate" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "ibs_mun_rate" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "ibs_cbs_cst" varchar(3) NOT NULL DEFAULT ('000'),
                "ibs_cbs_class" varchar(6) NOT NULL DEFAULT ('000001'),
                "source" varchar(200) NOT NULL,
                "source_date" date NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_rule_set_code" ON "fiscal_rule_set" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE TABLE "fiscal_tax_group" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "code" varchar(20) NOT NULL,
                "name" varchar(120) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_tax_group_code" ON "fiscal_tax_group" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE TABLE "fiscal_uf_rate" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "uf" varchar(2) NOT NULL,
                "tax_group_id" integer NOT NULL DEFAULT (0),
                "valid_from" date NOT NULL,
                "valid_to" date,
                "internal_rate" varchar(9) NOT NULL,
                "fcp_rate" varchar(9) NOT NULL DEFAULT ('0.0000'),
                "difal_double_base" boolean NOT NULL DEFAULT (0),
                "source" varchar(200) NOT NULL,
                "source_date" date NOT NULL,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_uf_rate_key" ON "fiscal_uf_rate" ("company_id", "uf", "tax_group_id", "valid_from")
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
                "country_name" varchar(60) NOT NULL DEFAULT ('BRASIL')
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
                    "updated_at"
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
                "updated_at"
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
            CREATE INDEX "ix_customer_company_name" ON "customer" ("company_id", "search_name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_trade" ON "customer" ("company_id", "search_trade_name")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_customer_company_document" ON "customer" ("company_id", "document")
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
            CREATE TABLE "temporary_product" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "origin" integer NOT NULL DEFAULT (0),
                "taxable_unit" varchar(6),
                "taxable_factor" varchar(17) NOT NULL DEFAULT ('1.000000'),
                "tax_group_id" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_product"(
                    "id",
                    "company_id",
                    "code",
                    "name",
                    "search_name",
                    "unit",
                    "gtin",
                    "ncm",
                    "cest",
                    "price",
                    "active",
                    "stock_controlled",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "code",
                "name",
                "search_name",
                "unit",
                "gtin",
                "ncm",
                "cest",
                "price",
                "active",
                "stock_controlled",
                "version",
                "created_at",
                "updated_at"
            FROM "product"
        `);
    await queryRunner.query(`
            DROP TABLE "product"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_product"
                RENAME TO "product"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_product_company_code" ON "product" ("company_id", "code")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_product_company_gtin" ON "product" ("company_id", "gtin")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_product_company_search" ON "product" ("company_id", "search_name")
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
                "dfe_sync_interval_minutes" integer NOT NULL DEFAULT (60),
                "version" integer NOT NULL DEFAULT (1),
                "trade_name" varchar(60),
                "address_street" varchar(60),
                "address_number" varchar(60),
                "address_complement" varchar(60),
                "address_district" varchar(60),
                "municipality_code" varchar(7),
                "municipality_name" varchar(60),
                "postal_code" varchar(8),
                "phone" varchar(14),
                "cnae" varchar(7),
                "simples_excess_sublimit" boolean NOT NULL DEFAULT (0),
                "simples_credit_rate" varchar(9),
                "industrial" boolean NOT NULL DEFAULT (0)
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
                    "updated_at",
                    "tax_regime",
                    "dfe_sync_enabled",
                    "dfe_sync_interval_minutes",
                    "version"
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
                "updated_at",
                "tax_regime",
                "dfe_sync_enabled",
                "dfe_sync_interval_minutes",
                "version"
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
    // Added by hand: the shipped ICMS/FCP rates per UF and the federal rule sets by date (company 0).
    await insertFiscalShippedData(queryRunner, (n) => `"${n}"`);
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "tax_regime" varchar(20) NOT NULL DEFAULT ('SIMPLES_NACIONAL'),
                "dfe_sync_enabled" boolean NOT NULL DEFAULT (0),
                "dfe_sync_interval_minutes" integer NOT NULL DEFAULT (60),
                "version" integer NOT NULL DEFAULT (1)
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
                    "updated_at",
                    "tax_regime",
                    "dfe_sync_enabled",
                    "dfe_sync_interval_minutes",
                    "version"
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
                "updated_at",
                "tax_regime",
                "dfe_sync_enabled",
                "dfe_sync_interval_minutes",
                "version"
            FROM "temporary_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_filial"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_filial_company_cnpj" ON "filial" ("company_id", "cnpj")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_product_company_search"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_product_company_gtin"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_product_company_code"
        `);
    await queryRunner.query(`
            ALTER TABLE "product"
                RENAME TO "temporary_product"
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
            INSERT INTO "product"(
                    "id",
                    "company_id",
                    "code",
                    "name",
                    "search_name",
                    "unit",
                    "gtin",
                    "ncm",
                    "cest",
                    "price",
                    "active",
                    "stock_controlled",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "code",
                "name",
                "search_name",
                "unit",
                "gtin",
                "ncm",
                "cest",
                "price",
                "active",
                "stock_controlled",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_product"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_product"
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
            DROP INDEX "ix_customer_company_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_trade"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_customer_company_name"
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
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
                    "updated_at"
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
                "updated_at"
            FROM "temporary_customer"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_customer"
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
            DROP INDEX "uq_fiscal_uf_rate_key"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_uf_rate"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_tax_group_code"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_tax_group"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_rule_set_code"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_rule_set"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_operation_rule_key"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_operation_rule"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_approximate_tax_ncm"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_approximate_tax"
        `);
  }
}
