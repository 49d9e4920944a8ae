import { MigrationInterface, QueryRunner } from 'typeorm';

export class StockCountsAndEfd1796229293984 implements MigrationInterface {
  name = 'StockCountsAndEfd1796229293984';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "inventory_count_line" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "count_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "product_id" integer NOT NULL,
                "counted_quantity" varchar(20),
                "expected_quantity" varchar(20),
                "counted_by" varchar(100),
                "counted_at" datetime,
                "difference" varchar(20),
                "snapshot_quantity" varchar(20),
                "unit_cost" varchar(23),
                "snapshot_value" varchar(17),
                "reason" varchar(200)
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_inventory_count_line" ON "inventory_count_line" ("company_id", "count_id", "product_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "inventory_count" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "count_date" date NOT NULL,
                "motive" varchar(2) NOT NULL,
                "notes" varchar(500),
                "line_count" integer NOT NULL,
                "total_value" varchar(17) NOT NULL DEFAULT ('0.00'),
                "created_by" varchar(100) NOT NULL,
                "closed_by" varchar(100),
                "closed_at" datetime,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_inventory_count_filial" ON "inventory_count" ("company_id", "filial_id", "count_date", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "sped_file" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "period" varchar(7) NOT NULL,
                "finalidade" varchar(1) NOT NULL,
                "perfil" varchar(1) NOT NULL,
                "inventory_count_id" integer,
                "status" varchar(10) NOT NULL,
                "layout_version" varchar(3),
                "line_count" integer,
                "sha256" varchar(64),
                "content_gz" blob,
                "trace_gz" blob,
                "request" text,
                "findings" text,
                "error" varchar(500),
                "requested_by" varchar(100) NOT NULL,
                "lease_owner" varchar(80),
                "lease_until" datetime,
                "finished_at" datetime,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sped_file_status" ON "sped_file" ("status", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sped_file_filial" ON "sped_file" ("company_id", "filial_id", "period", "id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_sped_file_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sped_file_status"
        `);
    await queryRunner.query(`
            DROP TABLE "sped_file"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_inventory_count_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "inventory_count"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_inventory_count_line"
        `);
    await queryRunner.query(`
            DROP TABLE "inventory_count_line"
        `);
  }
}
