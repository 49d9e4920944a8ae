import { MigrationInterface, QueryRunner } from 'typeorm';

/* fiscal_data_version: the version of a company's fiscal master data, bumped by every write of it (the tax engine's cache checks it). */

export class FiscalDataVersion1796300000000 implements MigrationInterface {
  name = 'FiscalDataVersion1796300000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "fiscal_data_version" (
                "company_id" integer PRIMARY KEY NOT NULL,
                "version" integer NOT NULL DEFAULT (0)
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "fiscal_data_version"
        `);
  }
}
