import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundNfeLastAttemptAndContingencyOf1796173756875 implements MigrationInterface {
  name = 'OutboundNfeLastAttemptAndContingencyOf1796173756875';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_outbound_nfe_filial"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_outbound_nfe_status"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_outbound_nfe_claim"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_outbound_nfe_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_outbound_nfe_number"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_outbound_nfe" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "series_id" integer NOT NULL,
                "model" integer NOT NULL,
                "series" integer NOT NULL,
                "number" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "source" varchar(16) NOT NULL,
                "fulfillment_id" integer,
                "sales_order_id" integer,
                "customer_id" integer,
                "claim" varchar(24),
                "status" varchar(12) NOT NULL,
                "emission_type" integer NOT NULL DEFAULT (1),
                "contingency_reason" varchar(256),
                "issued_at_text" varchar(25) NOT NULL,
                "issued_at" datetime NOT NULL,
                "random_code" varchar(8) NOT NULL,
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "summary" text NOT NULL,
                "signed_xml_gz" blob NOT NULL,
                "proc_xml_gz" blob,
                "c_stat" varchar(3),
                "x_motivo" varchar(255),
                "protocol" varchar(20),
                "authorized_at" datetime,
                "send_attempts" integer NOT NULL DEFAULT (0),
                "last_sent_at" datetime,
                "cancelled_at" datetime,
                "cancel_protocol" varchar(20),
                "correction_sequence" integer NOT NULL DEFAULT (0),
                "email_status" varchar(10) NOT NULL DEFAULT ('NONE'),
                "email_to" varchar(150),
                "email_attempts" integer NOT NULL DEFAULT (0),
                "email_sent_at" datetime,
                "email_error" varchar(300),
                "actor" varchar(100),
                "request_key" varchar(255),
                "lease_owner" varchar(80),
                "lease_until" datetime,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "source_id" integer,
                "last_attempt_at" datetime,
                "last_attempt_error" varchar(255),
                "contingency_of" integer,
                "prior_access_key" varchar(44),
                "prior_xml_gz" blob
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_outbound_nfe"(
                    "id",
                    "company_id",
                    "filial_id",
                    "series_id",
                    "model",
                    "series",
                    "number",
                    "access_key",
                    "source",
                    "fulfillment_id",
                    "sales_order_id",
                    "customer_id",
                    "claim",
                    "status",
                    "emission_type",
                    "contingency_reason",
                    "issued_at_text",
                    "issued_at",
                    "random_code",
                    "total",
                    "summary",
                    "signed_xml_gz",
                    "proc_xml_gz",
                    "c_stat",
                    "x_motivo",
                    "protocol",
                    "authorized_at",
                    "send_attempts",
                    "last_sent_at",
                    "cancelled_at",
                    "cancel_protocol",
                    "correction_sequence",
                    "email_status",
                    "email_to",
                    "email_attempts",
                    "email_sent_at",
                    "email_error",
                    "actor",
                    "request_key",
                    "lease_owner",
                    "lease_until",
                    "version",
                    "created_at",
                    "updated_at",
                    "source_id"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "series_id",
                "model",
                "series",
                "number",
                "access_key",
                "source",
                "fulfillment_id",
                "sales_order_id",
                "customer_id",
                "claim",
                "status",
                "emission_type",
                "contingency_reason",
                "issued_at_text",
                "issued_at",
                "random_code",
                "total",
                "summary",
                "signed_xml_gz",
                "proc_xml_gz",
                "c_stat",
                "x_motivo",
                "protocol",
                "authorized_at",
                "send_attempts",
                "last_sent_at",
                "cancelled_at",
                "cancel_protocol",
                "correction_sequence",
                "email_status",
                "email_to",
                "email_attempts",
                "email_sent_at",
                "email_error",
                "actor",
                "request_key",
                "lease_owner",
                "lease_until",
                "version",
                "created_at",
                "updated_at",
                "source_id"
            FROM "outbound_nfe"
        `);
    await queryRunner.query(`
            DROP TABLE "outbound_nfe"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_outbound_nfe"
                RENAME TO "outbound_nfe"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbound_nfe_filial" ON "outbound_nfe" ("company_id", "filial_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbound_nfe_status" ON "outbound_nfe" ("company_id", "status", "updated_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_outbound_nfe_claim" ON "outbound_nfe" ("company_id", "claim")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_outbound_nfe_key" ON "outbound_nfe" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_outbound_nfe_number" ON "outbound_nfe" (
                "company_id",
                "filial_id",
                "model",
                "series",
                "number"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbound_nfe_contingency_of" ON "outbound_nfe" ("company_id", "contingency_of")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_outbound_nfe_contingency_of"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_outbound_nfe_number"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_outbound_nfe_key"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_outbound_nfe_claim"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_outbound_nfe_status"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_outbound_nfe_filial"
        `);
    await queryRunner.query(`
            ALTER TABLE "outbound_nfe"
                RENAME TO "temporary_outbound_nfe"
        `);
    await queryRunner.query(`
            CREATE TABLE "outbound_nfe" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "series_id" integer NOT NULL,
                "model" integer NOT NULL,
                "series" integer NOT NULL,
                "number" integer NOT NULL,
                "access_key" varchar(44) NOT NULL,
                "source" varchar(16) NOT NULL,
                "fulfillment_id" integer,
                "sales_order_id" integer,
                "customer_id" integer,
                "claim" varchar(24),
                "status" varchar(12) NOT NULL,
                "emission_type" integer NOT NULL DEFAULT (1),
                "contingency_reason" varchar(256),
                "issued_at_text" varchar(25) NOT NULL,
                "issued_at" datetime NOT NULL,
                "random_code" varchar(8) NOT NULL,
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "summary" text NOT NULL,
                "signed_xml_gz" blob NOT NULL,
                "proc_xml_gz" blob,
                "c_stat" varchar(3),
                "x_motivo" varchar(255),
                "protocol" varchar(20),
                "authorized_at" datetime,
                "send_attempts" integer NOT NULL DEFAULT (0),
                "last_sent_at" datetime,
                "cancelled_at" datetime,
                "cancel_protocol" varchar(20),
                "correction_sequence" integer NOT NULL DEFAULT (0),
                "email_status" varchar(10) NOT NULL DEFAULT ('NONE'),
                "email_to" varchar(150),
                "email_attempts" integer NOT NULL DEFAULT (0),
                "email_sent_at" datetime,
                "email_error" varchar(300),
                "actor" varchar(100),
                "request_key" varchar(255),
                "lease_owner" varchar(80),
                "lease_until" datetime,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "source_id" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "outbound_nfe"(
                    "id",
                    "company_id",
                    "filial_id",
                    "series_id",
                    "model",
                    "series",
                    "number",
                    "access_key",
                    "source",
                    "fulfillment_id",
                    "sales_order_id",
                    "customer_id",
                    "claim",
                    "status",
                    "emission_type",
                    "contingency_reason",
                    "issued_at_text",
                    "issued_at",
                    "random_code",
                    "total",
                    "summary",
                    "signed_xml_gz",
                    "proc_xml_gz",
                    "c_stat",
                    "x_motivo",
                    "protocol",
                    "authorized_at",
                    "send_attempts",
                    "last_sent_at",
                    "cancelled_at",
                    "cancel_protocol",
                    "correction_sequence",
                    "email_status",
                    "email_to",
                    "email_attempts",
                    "email_sent_at",
                    "email_error",
                    "actor",
                    "request_key",
                    "lease_owner",
                    "lease_until",
                    "version",
                    "created_at",
                    "updated_at",
                    "source_id"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "series_id",
                "model",
                "series",
                "number",
                "access_key",
                "source",
                "fulfillment_id",
                "sales_order_id",
                "customer_id",
                "claim",
                "status",
                "emission_type",
                "contingency_reason",
                "issued_at_text",
                "issued_at",
                "random_code",
                "total",
                "summary",
                "signed_xml_gz",
                "proc_xml_gz",
                "c_stat",
                "x_motivo",
                "protocol",
                "authorized_at",
                "send_attempts",
                "last_sent_at",
                "cancelled_at",
                "cancel_protocol",
                "correction_sequence",
                "email_status",
                "email_to",
                "email_attempts",
                "email_sent_at",
                "email_error",
                "actor",
                "request_key",
                "lease_owner",
                "lease_until",
                "version",
                "created_at",
                "updated_at",
                "source_id"
            FROM "temporary_outbound_nfe"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_outbound_nfe"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_outbound_nfe_number" ON "outbound_nfe" (
                "company_id",
                "filial_id",
                "model",
                "series",
                "number"
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_outbound_nfe_key" ON "outbound_nfe" ("company_id", "access_key")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_outbound_nfe_claim" ON "outbound_nfe" ("company_id", "claim")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbound_nfe_status" ON "outbound_nfe" ("company_id", "status", "updated_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbound_nfe_filial" ON "outbound_nfe" ("company_id", "filial_id", "id")
        `);
  }
}
