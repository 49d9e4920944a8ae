import { MigrationInterface, QueryRunner } from 'typeorm';

export class CompanySmtp1795841360374 implements MigrationInterface {
  name = 'CompanySmtp1795841360374';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "company_smtp" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "host" varchar(255) NOT NULL,
                "port" integer NOT NULL,
                "secure" boolean NOT NULL DEFAULT (0),
                "username" varchar(255),
                "password_sealed" blob,
                "from_address" varchar(255) NOT NULL,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_company_smtp" ON "company_smtp" ("company_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_company_smtp"
        `);
    await queryRunner.query(`
            DROP TABLE "company_smtp"
        `);
  }
}
