import { MigrationInterface, QueryRunner } from 'typeorm';

export class DfeSchedule1795442878757 implements MigrationInterface {
  name = 'DfeSchedule1795442878757';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "sefaz_dfe_schedule" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "next_run_at" datetime NOT NULL,
                "lease_owner" varchar(80),
                "lease_until" datetime,
                "last_run_started_at" datetime,
                "last_run_finished_at" datetime,
                "last_outcome" varchar(20),
                "last_cstat" varchar(3),
                "last_message" varchar(500),
                "last_error_code" varchar(60),
                "last_error_at" datetime,
                "consecutive_errors" integer NOT NULL DEFAULT (0),
                "runs" integer NOT NULL DEFAULT (0),
                "last_received" integer NOT NULL DEFAULT (0),
                "total_received" integer NOT NULL DEFAULT (0),
                "last_ciencias" integer NOT NULL DEFAULT (0),
                "foreign_consumer_at" datetime,
                "foreign_consumer_reason" varchar(500),
                "foreign_consumer_detections" integer NOT NULL DEFAULT (0),
                "ciencia_refusals" text,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sefaz_dfe_schedule_due" ON "sefaz_dfe_schedule" ("next_run_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_dfe_schedule_filial" ON "sefaz_dfe_schedule" ("company_id", "filial_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_dfe_schedule_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_sefaz_dfe_schedule_due"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_dfe_schedule"
        `);
  }
}
