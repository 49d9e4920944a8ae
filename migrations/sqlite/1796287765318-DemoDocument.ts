import { MigrationInterface, QueryRunner } from 'typeorm';

export class DemoDocument1796287765318 implements MigrationInterface {
  name = 'DemoDocument1796287765318';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "demo_document" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "kind" varchar(40) NOT NULL,
                "document_id" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_demo_document_kind" ON "demo_document" ("company_id", "kind")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_demo_document_kind"
        `);
    await queryRunner.query(`
            DROP TABLE "demo_document"
        `);
  }
}
