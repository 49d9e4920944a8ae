import { MigrationInterface, QueryRunner } from 'typeorm';

export class CompanyLogo1796177556741 implements MigrationInterface {
  name = 'CompanyLogo1796177556741';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "company_logo" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "content_type" varchar(20) NOT NULL,
                "image" blob NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_company_logo_company" ON "company_logo" ("company_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_company_logo_company"
        `);
    await queryRunner.query(`
            DROP TABLE "company_logo"
        `);
  }
}
