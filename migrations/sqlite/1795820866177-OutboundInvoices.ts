import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundInvoices1795820866177 implements MigrationInterface {
  name = 'OutboundInvoices1795820866177';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "invoice_contingency" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "mode" varchar(6) NOT NULL,
                "reason" varchar(256) NOT NULL,
                "since" datetime NOT NULL,
                "checked_at" datetime NOT NULL,
                "ended_at" datetime,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_invoice_contingency_filial" ON "invoice_contingency" ("company_id", "filial_id", "ended_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "invoice_number_void" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "series_id" integer NOT NULL,
                "model" integer NOT NULL,
                "series" integer NOT NULL,
                "first_number" integer NOT NULL,
                "last_number" integer NOT NULL,
                "justification" varchar(255) NOT NULL,
                "status" varchar(10) NOT NULL,
                "c_stat" varchar(3),
                "x_motivo" varchar(255),
                "protocol" varchar(20),
                "voided_at" datetime,
                "xml_gz" blob,
                "actor" varchar(100),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_invoice_number_void_series" ON "invoice_number_void" ("company_id", "series_id", "first_number")
        `);
    await queryRunner.query(`
            CREATE TABLE "invoice_series" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "model" integer NOT NULL,
                "series" integer NOT NULL,
                "next_number" integer NOT NULL,
                "is_default" boolean NOT NULL DEFAULT (0),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_invoice_series" ON "invoice_series" ("company_id", "filial_id", "model", "series")
        `);
    await queryRunner.query(`
            CREATE TABLE "outbound_nfe_event" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "outbound_nfe_id" integer NOT NULL,
                "type" varchar(6) NOT NULL,
                "sequence" integer NOT NULL,
                "text" varchar(1000) NOT NULL,
                "c_stat" varchar(3) NOT NULL,
                "x_motivo" varchar(255) NOT NULL,
                "protocol" varchar(20) NOT NULL,
                "registered_at" datetime NOT NULL,
                "xml_gz" blob NOT NULL,
                "actor" varchar(100),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_outbound_nfe_event" ON "outbound_nfe_event" (
                "company_id",
                "outbound_nfe_id",
                "type",
                "sequence"
            )
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
                "source" varchar(12) NOT NULL,
                "fulfillment_id" integer,
                "sales_order_id" integer NOT NULL,
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
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
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
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
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
            DROP TABLE "outbound_nfe"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_outbound_nfe_event"
        `);
    await queryRunner.query(`
            DROP TABLE "outbound_nfe_event"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_invoice_series"
        `);
    await queryRunner.query(`
            DROP TABLE "invoice_series"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_invoice_number_void_series"
        `);
    await queryRunner.query(`
            DROP TABLE "invoice_number_void"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_invoice_contingency_filial"
        `);
    await queryRunner.query(`
            DROP TABLE "invoice_contingency"
        `);
  }
}
