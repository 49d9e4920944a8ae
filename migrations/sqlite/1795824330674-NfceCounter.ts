import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfceCounter1795824330674 implements MigrationInterface {
  name = 'NfceCounter1795824330674';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "nfce_configuration" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "series" integer NOT NULL,
                "qr_version" integer NOT NULL,
                "csc_id" integer,
                "csc_token" varchar(36),
                "qr_code_url" varchar(255) NOT NULL,
                "consult_url" varchar(255) NOT NULL,
                "auto_issue" boolean NOT NULL DEFAULT (0),
                "sync_timeout_ms" integer NOT NULL DEFAULT (3000),
                "identification_threshold" varchar(17) DEFAULT ('0.00'),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfce_configuration_filial" ON "nfce_configuration" ("company_id", "filial_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "nfce_document" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "series_id" integer NOT NULL,
                "series" integer NOT NULL,
                "number" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "online_key" varchar(44),
                "status" varchar(20) NOT NULL,
                "emission_type" integer NOT NULL,
                "issued_at" datetime NOT NULL,
                "random_code" varchar(8) NOT NULL,
                "contingency_at" datetime,
                "contingency_reason" varchar(256),
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "consumer_document" varchar(14),
                "qr_code" varchar(1000) NOT NULL,
                "consult_url" varchar(255) NOT NULL,
                "tp_amb" varchar(1) NOT NULL,
                "summary" text NOT NULL,
                "signed_xml_gz" blob NOT NULL,
                "online_xml_gz" blob,
                "proc_xml_gz" blob,
                "protocol" varchar(20),
                "authorized_at" datetime,
                "c_stat" varchar(3),
                "x_motivo" varchar(255),
                "cancel_protocol" varchar(20),
                "cancel_xml_gz" blob,
                "send_attempts" integer NOT NULL DEFAULT (0),
                "overdue_alerted" boolean NOT NULL DEFAULT (0),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfce_document_status" ON "nfce_document" ("status", "filial_id", "number")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfce_document_order" ON "nfce_document" ("company_id", "sales_order_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfce_document_number" ON "nfce_document" ("company_id", "series_id", "number")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfce_document_key" ON "nfce_document" ("access_key")
        `);
    await queryRunner.query(`
            CREATE TABLE "nfce_queue_lease" (
                "name" varchar(40) PRIMARY KEY NOT NULL,
                "owner" varchar(80),
                "lease_until" datetime
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE "nfce_queue_lease"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfce_document_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfce_document_number"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfce_document_order"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_nfce_document_status"
        `);
    await queryRunner.query(`
            DROP TABLE "nfce_document"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfce_configuration_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "nfce_configuration"
        `);
  }
}
