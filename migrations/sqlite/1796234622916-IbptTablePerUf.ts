import { MigrationInterface, QueryRunner } from 'typeorm';

export class IbptTablePerUf1796234622916 implements MigrationInterface {
  name = 'IbptTablePerUf1796234622916';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_approximate_tax_ncm"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_fiscal_approximate_tax" (
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
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "uf" varchar(2) NOT NULL DEFAULT (''),
                "table_key" varchar(20) NOT NULL DEFAULT ('')
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_fiscal_approximate_tax"(
                    "id",
                    "company_id",
                    "ncm",
                    "ex",
                    "federal_national_rate",
                    "federal_imported_rate",
                    "state_rate",
                    "municipal_rate",
                    "valid_from",
                    "valid_to",
                    "table_version",
                    "source",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "ncm",
                "ex",
                "federal_national_rate",
                "federal_imported_rate",
                "state_rate",
                "municipal_rate",
                "valid_from",
                "valid_to",
                "table_version",
                "source",
                "created_at"
            FROM "fiscal_approximate_tax"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_approximate_tax"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_fiscal_approximate_tax"
                RENAME TO "fiscal_approximate_tax"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_approximate_tax_uf_ncm" ON "fiscal_approximate_tax" ("company_id", "uf", "ncm", "ex")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_approximate_tax_uf_ncm"
        `);
    await queryRunner.query(`
            ALTER TABLE "fiscal_approximate_tax"
                RENAME TO "temporary_fiscal_approximate_tax"
        `);
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
            INSERT INTO "fiscal_approximate_tax"(
                    "id",
                    "company_id",
                    "ncm",
                    "ex",
                    "federal_national_rate",
                    "federal_imported_rate",
                    "state_rate",
                    "municipal_rate",
                    "valid_from",
                    "valid_to",
                    "table_version",
                    "source",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "ncm",
                "ex",
                "federal_national_rate",
                "federal_imported_rate",
                "state_rate",
                "municipal_rate",
                "valid_from",
                "valid_to",
                "table_version",
                "source",
                "created_at"
            FROM "temporary_fiscal_approximate_tax"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_fiscal_approximate_tax"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_approximate_tax_ncm" ON "fiscal_approximate_tax" ("company_id", "ncm", "ex")
        `);
  }
}
