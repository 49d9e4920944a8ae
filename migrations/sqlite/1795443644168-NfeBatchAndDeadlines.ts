import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfeBatchAndDeadlines1795443644168 implements MigrationInterface {
  name = 'NfeBatchAndDeadlines1795443644168';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "nfe_batch_file" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "job_id" integer NOT NULL,
                "seq" integer NOT NULL,
                "name" varchar(255) NOT NULL,
                "size" integer NOT NULL,
                "kind" varchar(10),
                "phase" integer NOT NULL DEFAULT (0),
                "content_gz" blob,
                "status" varchar(10) NOT NULL,
                "access_key" varchar(44),
                "inbound_id" integer,
                "problem_code" varchar(60),
                "message" varchar(500),
                "processed_order" integer,
                "processed_at" datetime
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_file_order" ON "nfe_batch_file" ("company_id", "job_id", "processed_order")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_file_pending" ON "nfe_batch_file" ("company_id", "job_id", "status", "phase", "seq")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfe_batch_file_seq" ON "nfe_batch_file" ("company_id", "job_id", "seq")
        `);
    await queryRunner.query(`
            CREATE TABLE "nfe_batch_job" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "format" varchar(10) NOT NULL,
                "upload_sha256" varchar(64) NOT NULL,
                "total" integer NOT NULL,
                "processed" integer NOT NULL DEFAULT (0),
                "staged" integer NOT NULL DEFAULT (0),
                "duplicates" integer NOT NULL DEFAULT (0),
                "invalid" integer NOT NULL DEFAULT (0),
                "lease_owner" varchar(80),
                "lease_until" datetime,
                "error" varchar(500),
                "created_by" varchar(120) NOT NULL,
                "request_id" varchar(64),
                "started_at" datetime,
                "finished_at" datetime,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_job_status" ON "nfe_batch_job" ("status", "lease_until")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_batch_job_filial" ON "nfe_batch_job" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "nfe_manifestation_deadline" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "inbound_id" integer NOT NULL,
                "inbound_version" integer NOT NULL,
                "rule" varchar(20) NOT NULL,
                "provisional" boolean NOT NULL DEFAULT (0),
                "authorized_at" datetime NOT NULL,
                "confirmacao_until" date NOT NULL,
                "desconhecimento_until" date NOT NULL,
                "nao_realizada_until" date NOT NULL,
                "due_date" date NOT NULL,
                "open" boolean NOT NULL,
                "notified_threshold" integer,
                "version" integer NOT NULL DEFAULT (1),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_manifestation_deadline_due" ON "nfe_manifestation_deadline" (
                "company_id",
                "filial_id",
                "open",
                "due_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfe_manifestation_deadline_inbound" ON "nfe_manifestation_deadline" ("company_id", "inbound_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfe_inbound_filial_authorized" ON "nfe_inbound" ("company_id", "filial_id", "authorized_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_nfe_inbound_filial_authorized"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfe_manifestation_deadline_inbound"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_manifestation_deadline_due"
        `);
    await queryRunner.query(`
            DROP TABLE "nfe_manifestation_deadline"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_job_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_job_status"
        `);
    await queryRunner.query(`
            DROP TABLE "nfe_batch_job"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfe_batch_file_seq"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_file_pending"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfe_batch_file_order"
        `);
    await queryRunner.query(`
            DROP TABLE "nfe_batch_file"
        `);
  }
}
