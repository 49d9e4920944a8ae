import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfceSubstitution1795840901673 implements MigrationInterface {
  name = 'NfceSubstitution1795840901673';

  public async up(queryRunner: QueryRunner): Promise<void> {
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
            CREATE TABLE "temporary_nfce_document" (
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "online_number" integer,
                "original_outcome" varchar(20),
                "original_protocol" varchar(20),
                "original_xml_gz" blob
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_nfce_document"(
                    "id",
                    "company_id",
                    "filial_id",
                    "sales_order_id",
                    "series_id",
                    "series",
                    "number",
                    "access_key",
                    "online_key",
                    "status",
                    "emission_type",
                    "issued_at",
                    "random_code",
                    "contingency_at",
                    "contingency_reason",
                    "total",
                    "consumer_document",
                    "qr_code",
                    "consult_url",
                    "tp_amb",
                    "summary",
                    "signed_xml_gz",
                    "online_xml_gz",
                    "proc_xml_gz",
                    "protocol",
                    "authorized_at",
                    "c_stat",
                    "x_motivo",
                    "cancel_protocol",
                    "cancel_xml_gz",
                    "send_attempts",
                    "overdue_alerted",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "sales_order_id",
                "series_id",
                "series",
                "number",
                "access_key",
                "online_key",
                "status",
                "emission_type",
                "issued_at",
                "random_code",
                "contingency_at",
                "contingency_reason",
                "total",
                "consumer_document",
                "qr_code",
                "consult_url",
                "tp_amb",
                "summary",
                "signed_xml_gz",
                "online_xml_gz",
                "proc_xml_gz",
                "protocol",
                "authorized_at",
                "c_stat",
                "x_motivo",
                "cancel_protocol",
                "cancel_xml_gz",
                "send_attempts",
                "overdue_alerted",
                "version",
                "created_at",
                "updated_at"
            FROM "nfce_document"
        `);
    await queryRunner.query(`
            DROP TABLE "nfce_document"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_nfce_document"
                RENAME TO "nfce_document"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfce_document_key" ON "nfce_document" ("access_key")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfce_document_number" ON "nfce_document" ("company_id", "series_id", "number")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_nfce_document_order" ON "nfce_document" ("company_id", "sales_order_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_nfce_document_status" ON "nfce_document" ("status", "filial_id", "number")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_nfce_document_status"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfce_document_order"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfce_document_number"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_nfce_document_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "nfce_document"
                RENAME TO "temporary_nfce_document"
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
            INSERT INTO "nfce_document"(
                    "id",
                    "company_id",
                    "filial_id",
                    "sales_order_id",
                    "series_id",
                    "series",
                    "number",
                    "access_key",
                    "online_key",
                    "status",
                    "emission_type",
                    "issued_at",
                    "random_code",
                    "contingency_at",
                    "contingency_reason",
                    "total",
                    "consumer_document",
                    "qr_code",
                    "consult_url",
                    "tp_amb",
                    "summary",
                    "signed_xml_gz",
                    "online_xml_gz",
                    "proc_xml_gz",
                    "protocol",
                    "authorized_at",
                    "c_stat",
                    "x_motivo",
                    "cancel_protocol",
                    "cancel_xml_gz",
                    "send_attempts",
                    "overdue_alerted",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "sales_order_id",
                "series_id",
                "series",
                "number",
                "access_key",
                "online_key",
                "status",
                "emission_type",
                "issued_at",
                "random_code",
                "contingency_at",
                "contingency_reason",
                "total",
                "consumer_document",
                "qr_code",
                "consult_url",
                "tp_amb",
                "summary",
                "signed_xml_gz",
                "online_xml_gz",
                "proc_xml_gz",
                "protocol",
                "authorized_at",
                "c_stat",
                "x_motivo",
                "cancel_protocol",
                "cancel_xml_gz",
                "send_attempts",
                "overdue_alerted",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_nfce_document"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_nfce_document"
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
  }
}
