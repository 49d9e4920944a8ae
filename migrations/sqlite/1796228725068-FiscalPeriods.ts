import { MigrationInterface, QueryRunner } from 'typeorm';

export class FiscalPeriods1796228725068 implements MigrationInterface {
  name = 'FiscalPeriods1796228725068';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "fiscal_period" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "period" varchar(7) NOT NULL,
                "status" varchar(8) NOT NULL,
                "closed_at" datetime,
                "closed_by" varchar(100),
                "acknowledged" text,
                "reopened_at" datetime,
                "reopened_by" varchar(100),
                "reopen_reason" varchar(500),
                "close_count" integer NOT NULL DEFAULT (0),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_fiscal_period" ON "fiscal_period" ("company_id", "filial_id", "period")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ux_fiscal_period"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_period"
        `);
  }
}
