import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyLease1795454413615 implements MigrationInterface {
  name = 'IdempotencyLease1795454413615';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_idempotency_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_idempotency_key" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "key" varchar(120) NOT NULL,
                "request_hash" varchar(64) NOT NULL,
                "state" varchar(12) NOT NULL,
                "response_status" integer,
                "response_body" text,
                "response_content_type" varchar(60),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "response_headers" text,
                "lease_owner" varchar(36),
                "lease_expires_at" datetime
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_idempotency_key"(
                    "id",
                    "company_id",
                    "key",
                    "request_hash",
                    "state",
                    "response_status",
                    "response_body",
                    "response_content_type",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "key",
                "request_hash",
                "state",
                "response_status",
                "response_body",
                "response_content_type",
                "created_at"
            FROM "idempotency_key"
        `);
    await queryRunner.query(`
            DROP TABLE "idempotency_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_idempotency_key"
                RENAME TO "idempotency_key"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_idempotency_key" ON "idempotency_key" ("company_id", "key")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_idempotency_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "idempotency_key"
                RENAME TO "temporary_idempotency_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "idempotency_key" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "key" varchar(120) NOT NULL,
                "request_hash" varchar(64) NOT NULL,
                "state" varchar(12) NOT NULL,
                "response_status" integer,
                "response_body" text,
                "response_content_type" varchar(60),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "idempotency_key"(
                    "id",
                    "company_id",
                    "key",
                    "request_hash",
                    "state",
                    "response_status",
                    "response_body",
                    "response_content_type",
                    "created_at"
                )
            SELECT "id",
                "company_id",
                "key",
                "request_hash",
                "state",
                "response_status",
                "response_body",
                "response_content_type",
                "created_at"
            FROM "temporary_idempotency_key"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_idempotency_key"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_idempotency_key" ON "idempotency_key" ("company_id", "key")
        `);
  }
}
