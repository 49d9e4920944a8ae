import { MigrationInterface, QueryRunner } from 'typeorm';

export class StAgreements1796231005309 implements MigrationInterface {
  name = 'StAgreements1796231005309';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "fiscal_st_agreement" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "origin_uf" varchar(2) NOT NULL,
                "destination_uf" varchar(2) NOT NULL,
                "ncm_prefix" varchar(8) NOT NULL,
                "cest" varchar(7) NOT NULL DEFAULT (''),
                "mva" varchar(9) NOT NULL,
                "destination_internal_rate" varchar(9),
                "valid_from" date NOT NULL,
                "valid_to" date,
                "source" varchar(200) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_st_agreement_key" ON "fiscal_st_agreement" (
                "company_id",
                "origin_uf",
                "destination_uf",
                "ncm_prefix",
                "cest",
                "valid_from"
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_st_agreement_key"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_st_agreement"
        `);
  }
}
