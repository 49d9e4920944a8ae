import { MigrationInterface, QueryRunner } from 'typeorm';

export class SefazAuthoritySetting1796228621751 implements MigrationInterface {
  name = 'SefazAuthoritySetting1796228621751';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "sefaz_authority_setting" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "url_overrides" text NOT NULL,
                "nfe_contingency" varchar(20) NOT NULL,
                "nfce_contingency" varchar(20) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_authority_setting_filial" ON "sefaz_authority_setting" ("company_id", "filial_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_authority_setting_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_authority_setting"
        `);
  }
}
