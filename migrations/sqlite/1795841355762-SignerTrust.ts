import { MigrationInterface, QueryRunner } from 'typeorm';

export class SignerTrust1795841355762 implements MigrationInterface {
  name = 'SignerTrust1795841355762';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_entry_document"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_company_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issue_date"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issuer"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_import"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_issued"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfe_inbound_filial_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_authorized"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_nfe_inbound" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "freight_cte_announced_at" datetime,
                "freight_cte_key" varchar(44),
                "authority_check" varchar(16),
                "authority_check_cstat" varchar(3),
                "authority_checked_at" datetime
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_nfe_inbound"(
                    "id",
                    "company_id",
                    "filial_id",
                    "access_key",
                    "issuer_document",
                    "issuer_name",
                    "issuer_search",
                    "issuer_uf",
                    "model",
                    "series",
                    "number",
                    "issued_at",
                    "issue_date",
                    "total",
                    "nsu",
                    "kind",
                    "authority_status",
                    "environment",
                    "protocol_number",
                    "authorized_at",
                    "manifestation",
                    "manifestation_protocol",
                    "manifestation_at",
                    "has_xml",
                    "xml_gzip",
                    "xml_sha256",
                    "source",
                    "import_status",
                    "entry_document_id",
                    "validation",
                    "version",
                    "created_at",
                    "updated_at",
                    "freight_cte_announced_at",
                    "freight_cte_key"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "access_key",
                "issuer_document",
                "issuer_name",
                "issuer_search",
                "issuer_uf",
                "model",
                "series",
                "number",
                "issued_at",
                "issue_date",
                "total",
                "nsu",
                "kind",
                "authority_status",
                "environment",
                "protocol_number",
                "authorized_at",
                "manifestation",
                "manifestation_protocol",
                "manifestation_at",
                "has_xml",
                "xml_gzip",
                "xml_sha256",
                "source",
                "import_status",
                "entry_document_id",
                "validation",
                "version",
                "created_at",
                "updated_at",
                "freight_cte_announced_at",
                "freight_cte_key"
            FROM "nfe_inbound"
        `);
    await queryRunner.query(`
            DROP TABLE "nfe_inbound"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_nfe_inbound"
                RENAME TO "nfe_inbound"
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
            CREATE INDEX "ix_nfe_inbound_filial_authorized" ON "nfe_inbound" ("company_id", "filial_id", "authorized_at")
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
                "industrial" boolean NOT NULL DEFAULT (0),
                "allow_unverified_uploads" boolean NOT NULL DEFAULT (0)
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
                    "version",
                    "trade_name",
                    "address_street",
                    "address_number",
                    "address_complement",
                    "address_district",
                    "municipality_code",
                    "municipality_name",
                    "postal_code",
                    "phone",
                    "cnae",
                    "simples_excess_sublimit",
                    "simples_credit_rate",
                    "industrial"
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
                "version",
                "trade_name",
                "address_street",
                "address_number",
                "address_complement",
                "address_district",
                "municipality_code",
                "municipality_name",
                "postal_code",
                "phone",
                "cnae",
                "simples_excess_sublimit",
                "simples_credit_rate",
                "industrial"
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
                    "version",
                    "trade_name",
                    "address_street",
                    "address_number",
                    "address_complement",
                    "address_district",
                    "municipality_code",
                    "municipality_name",
                    "postal_code",
                    "phone",
                    "cnae",
                    "simples_excess_sublimit",
                    "simples_credit_rate",
                    "industrial"
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
                "version",
                "trade_name",
                "address_street",
                "address_number",
                "address_complement",
                "address_district",
                "municipality_code",
                "municipality_name",
                "postal_code",
                "phone",
                "cnae",
                "simples_excess_sublimit",
                "simples_credit_rate",
                "industrial"
            FROM "temporary_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_filial"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_filial_company_cnpj" ON "filial" ("company_id", "cnpj")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_authorized"
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
            ALTER TABLE "nfe_inbound"
                RENAME TO "temporary_nfe_inbound"
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "freight_cte_announced_at" datetime,
                "freight_cte_key" varchar(44)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "nfe_inbound"(
                    "id",
                    "company_id",
                    "filial_id",
                    "access_key",
                    "issuer_document",
                    "issuer_name",
                    "issuer_search",
                    "issuer_uf",
                    "model",
                    "series",
                    "number",
                    "issued_at",
                    "issue_date",
                    "total",
                    "nsu",
                    "kind",
                    "authority_status",
                    "environment",
                    "protocol_number",
                    "authorized_at",
                    "manifestation",
                    "manifestation_protocol",
                    "manifestation_at",
                    "has_xml",
                    "xml_gzip",
                    "xml_sha256",
                    "source",
                    "import_status",
                    "entry_document_id",
                    "validation",
                    "version",
                    "created_at",
                    "updated_at",
                    "freight_cte_announced_at",
                    "freight_cte_key"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "access_key",
                "issuer_document",
                "issuer_name",
                "issuer_search",
                "issuer_uf",
                "model",
                "series",
                "number",
                "issued_at",
                "issue_date",
                "total",
                "nsu",
                "kind",
                "authority_status",
                "environment",
                "protocol_number",
                "authorized_at",
                "manifestation",
                "manifestation_protocol",
                "manifestation_at",
                "has_xml",
                "xml_gzip",
                "xml_sha256",
                "source",
                "import_status",
                "entry_document_id",
                "validation",
                "version",
                "created_at",
                "updated_at",
                "freight_cte_announced_at",
                "freight_cte_key"
            FROM "temporary_nfe_inbound"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_nfe_inbound"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_authorized" ON "nfe_inbound" ("company_id", "filial_id", "authorized_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfe_inbound_filial_key" ON "nfe_inbound" ("company_id", "filial_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issued" ON "nfe_inbound" ("company_id", "filial_id", "issued_at", "id")
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
            CREATE INDEX "ix_nfe_inbound_filial_issuer" ON "nfe_inbound" ("company_id", "filial_id", "issuer_document")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_issue_date" ON "nfe_inbound" ("company_id", "filial_id", "issue_date")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_company_key" ON "nfe_inbound" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_entry_document" ON "nfe_inbound" ("company_id", "entry_document_id")
        `);
  }
}
