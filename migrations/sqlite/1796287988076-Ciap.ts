import { MigrationInterface, QueryRunner } from 'typeorm';

export class Ciap1796287988076 implements MigrationInterface {
  name = 'Ciap1796287988076';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "ciap_asset" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "entry_document_id" integer NOT NULL,
                "entry_document_item_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "description" varchar(500) NOT NULL,
                "ncm" varchar(8),
                "entry_cfop" varchar(4) NOT NULL,
                "document_number" varchar(20) NOT NULL,
                "access_key" varchar(44),
                "supplier_document" varchar(14) NOT NULL,
                "entry_date" date NOT NULL,
                "first_month" varchar(7) NOT NULL,
                "icms_own" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_st" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_freight" varchar(17) NOT NULL DEFAULT ('0.00'),
                "icms_difal" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_credit" varchar(17) NOT NULL DEFAULT ('0.00'),
                "part_count" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "cancelled_at" datetime,
                "cancel_reason" varchar(500),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_ciap_asset_document" ON "ciap_asset" ("company_id", "entry_document_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_ciap_asset_filial" ON "ciap_asset" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_ciap_asset_item" ON "ciap_asset" ("company_id", "entry_document_item_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "ciap_appropriation" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "month" varchar(7) NOT NULL,
                "taxed_exits" varchar(17) NOT NULL DEFAULT ('0.00'),
                "total_exits" varchar(17) NOT NULL DEFAULT ('0.00'),
                "exit_share" varchar(14) NOT NULL,
                "parts_total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "credited" varchar(17) NOT NULL DEFAULT ('0.00'),
                "part_count" integer NOT NULL,
                "source" varchar(200) NOT NULL,
                "created_by" varchar(100) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_ciap_appropriation_month" ON "ciap_appropriation" ("company_id", "filial_id", "month")
        `);
    await queryRunner.query(`
            CREATE TABLE "ciap_part" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "asset_id" integer NOT NULL,
                "number" integer NOT NULL,
                "month" varchar(7) NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "status" varchar(12) NOT NULL,
                "credited" varchar(17),
                "appropriation_id" integer
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_ciap_part_month" ON "ciap_part" ("company_id", "filial_id", "month", "status")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_ciap_part_number" ON "ciap_part" ("asset_id", "number")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ux_ciap_part_number"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_ciap_part_month"
        `);
    await queryRunner.query(`
            DROP TABLE "ciap_part"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_ciap_appropriation_month"
        `);
    await queryRunner.query(`
            DROP TABLE "ciap_appropriation"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_ciap_asset_item"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_ciap_asset_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_ciap_asset_document"
        `);
    await queryRunner.query(`
            DROP TABLE "ciap_asset"
        `);
  }
}
