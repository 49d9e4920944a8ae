import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventStreamPositions1795442705498 implements MigrationInterface {
  name = 'EventStreamPositions1795442705498';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_outbox_company"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_outbox_company_type"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_delivery_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_subscription_company"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_subscription_active"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_webhook_subscription" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "url" varchar(500) NOT NULL,
                "types" text NOT NULL,
                "description" varchar(200),
                "secret" varchar(80) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "last_position" integer NOT NULL DEFAULT (0),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_webhook_subscription"(
                    "id",
                    "company_id",
                    "url",
                    "types",
                    "description",
                    "secret",
                    "active",
                    "last_position",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "url",
                "types",
                "description",
                "secret",
                "active",
                "last_event_id",
                "created_at"
            FROM "webhook_subscription"
        `);
    await queryRunner.query(`
            DROP TABLE "webhook_subscription"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_webhook_subscription"
                RENAME TO "webhook_subscription"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_subscription_company" ON "webhook_subscription" ("company_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_subscription_active" ON "webhook_subscription" ("active", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "outbox_stream" (
                "company_id" integer NOT NULL,
                "stream" varchar(64) NOT NULL,
                "last_value" integer NOT NULL DEFAULT (0),
                PRIMARY KEY ("company_id", "stream")
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_outbox_event" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer,
                "type" varchar(60) NOT NULL,
                "aggregate_type" varchar(40) NOT NULL,
                "aggregate_id" integer NOT NULL,
                "data" text NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "stream_position" integer,
                "resource_seq" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_outbox_event"(
                    "id",
                    "company_id",
                    "filial_id",
                    "type",
                    "aggregate_type",
                    "aggregate_id",
                    "data",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "type",
                "aggregate_type",
                "aggregate_id",
                "data",
                "created_at"
            FROM "outbox_event"
        `);
    await queryRunner.query(`
            DROP TABLE "outbox_event"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_outbox_event"
                RENAME TO "outbox_event"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_webhook_delivery"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_delivery_company"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_webhook_delivery" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "subscription_id" integer NOT NULL,
                "event_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "attempts" integer NOT NULL DEFAULT (0),
                "next_attempt_at" datetime NOT NULL,
                "locked_until" datetime,
                "last_status_code" integer,
                "last_error" varchar(300),
                "delivered_at" datetime,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "lease_token" varchar(32)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_webhook_delivery"(
                    "id",
                    "company_id",
                    "subscription_id",
                    "event_id",
                    "status",
                    "attempts",
                    "next_attempt_at",
                    "locked_until",
                    "last_status_code",
                    "last_error",
                    "delivered_at",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "subscription_id",
                "event_id",
                "status",
                "attempts",
                "next_attempt_at",
                "locked_until",
                "last_status_code",
                "last_error",
                "delivered_at",
                "created_at"
            FROM "webhook_delivery"
        `);
    await queryRunner.query(`
            DROP TABLE "webhook_delivery"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_webhook_delivery"
                RENAME TO "webhook_delivery"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_webhook_delivery" ON "webhook_delivery" ("subscription_id", "event_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_delivery_company" ON "webhook_delivery" ("company_id", "subscription_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbox_company_type_position" ON "outbox_event" ("company_id", "type", "stream_position")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_outbox_company_position" ON "outbox_event" ("company_id", "stream_position")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_delivery_due" ON "webhook_delivery" ("subscription_id", "status", "next_attempt_at")
        `);
    // Data: events written before positions existed get them in id order (as they were read),
    // and each subscription's cursor (the last event id it had fanned out, copied above) becomes
    // the position of that event.
    await queryRunner.query(`
            UPDATE "outbox_event" SET stream_position = r.p, resource_seq = r.s
            FROM (
                SELECT id,
                    ROW_NUMBER() OVER (PARTITION BY company_id ORDER BY id) AS p,
                    ROW_NUMBER() OVER (PARTITION BY company_id, aggregate_type, aggregate_id ORDER BY id) AS s
                FROM "outbox_event"
            ) AS r
            WHERE r.id = "outbox_event".id
        `);
    await queryRunner.query(`
            INSERT INTO "outbox_stream" (company_id, stream, last_value)
            SELECT company_id, '*', MAX(stream_position) FROM "outbox_event" GROUP BY company_id
            UNION ALL
            SELECT company_id, aggregate_type || ':' || aggregate_id, MAX(resource_seq) FROM "outbox_event" GROUP BY company_id, aggregate_type, aggregate_id
        `);
    await queryRunner.query(`
            UPDATE "webhook_subscription"
            SET last_position = COALESCE((SELECT MAX(e.stream_position) FROM "outbox_event" e WHERE e.company_id = "webhook_subscription".company_id AND e.id <= "webhook_subscription".last_position), 0)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Subscriptions' cursors back to event ids (the position's event).
    await queryRunner.query(`
            UPDATE "webhook_subscription"
            SET last_position = COALESCE((SELECT MAX(e.id) FROM "outbox_event" e WHERE e.company_id = "webhook_subscription".company_id AND e.stream_position <= "webhook_subscription".last_position), 0)
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_delivery_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_outbox_company_position"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_outbox_company_type_position"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_delivery_company"
        `);
    await queryRunner.query(`
            DROP INDEX "uq_webhook_delivery"
        `);
    await queryRunner.query(`
            ALTER TABLE "webhook_delivery"
                RENAME TO "temporary_webhook_delivery"
        `);
    await queryRunner.query(`
            CREATE TABLE "webhook_delivery" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "subscription_id" integer NOT NULL,
                "event_id" integer NOT NULL,
                "status" varchar(10) NOT NULL,
                "attempts" integer NOT NULL DEFAULT (0),
                "next_attempt_at" datetime NOT NULL,
                "locked_until" datetime,
                "last_status_code" integer,
                "last_error" varchar(300),
                "delivered_at" datetime,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "webhook_delivery"(
                    "id",
                    "company_id",
                    "subscription_id",
                    "event_id",
                    "status",
                    "attempts",
                    "next_attempt_at",
                    "locked_until",
                    "last_status_code",
                    "last_error",
                    "delivered_at",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "subscription_id",
                "event_id",
                "status",
                "attempts",
                "next_attempt_at",
                "locked_until",
                "last_status_code",
                "last_error",
                "delivered_at",
                "created_at"
            FROM "temporary_webhook_delivery"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_webhook_delivery"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_delivery_company" ON "webhook_delivery" ("company_id", "subscription_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_webhook_delivery" ON "webhook_delivery" ("subscription_id", "event_id")
        `);
    await queryRunner.query(`
            ALTER TABLE "outbox_event"
                RENAME TO "temporary_outbox_event"
        `);
    await queryRunner.query(`
            CREATE TABLE "outbox_event" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer,
                "type" varchar(60) NOT NULL,
                "aggregate_type" varchar(40) NOT NULL,
                "aggregate_id" integer NOT NULL,
                "data" text NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "outbox_event"(
                    "id",
                    "company_id",
                    "filial_id",
                    "type",
                    "aggregate_type",
                    "aggregate_id",
                    "data",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "type",
                "aggregate_type",
                "aggregate_id",
                "data",
                "created_at"
            FROM "temporary_outbox_event"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_outbox_event"
        `);
    await queryRunner.query(`
            DROP TABLE "outbox_stream"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_subscription_active"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_webhook_subscription_company"
        `);
    await queryRunner.query(`
            ALTER TABLE "webhook_subscription"
                RENAME TO "temporary_webhook_subscription"
        `);
    await queryRunner.query(`
            CREATE TABLE "webhook_subscription" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "url" varchar(500) NOT NULL,
                "types" text NOT NULL,
                "description" varchar(200),
                "secret" varchar(80) NOT NULL,
                "active" boolean NOT NULL DEFAULT (1),
                "last_event_id" integer NOT NULL DEFAULT (0),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "webhook_subscription"(
                    "id",
                    "company_id",
                    "url",
                    "types",
                    "description",
                    "secret",
                    "active",
                    "last_event_id",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "url",
                "types",
                "description",
                "secret",
                "active",
                "last_position",
                "created_at"
            FROM "temporary_webhook_subscription"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_webhook_subscription"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_subscription_active" ON "webhook_subscription" ("active", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_subscription_company" ON "webhook_subscription" ("company_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_delivery_due" ON "webhook_delivery" ("status", "next_attempt_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbox_company_type" ON "outbox_event" ("company_id", "type", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_outbox_company" ON "outbox_event" ("company_id", "id")
        `);
  }
}
