import { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillPartySearchTokens } from '../backfill-party-search-tokens';

export class WordSearchIndex1795456289114 implements MigrationInterface {
  name = 'WordSearchIndex1795456289114';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "party_search_token" (
                "company_id" integer NOT NULL,
                "party_type" varchar(10) NOT NULL,
                "token" varchar(40) NOT NULL,
                "party_id" integer NOT NULL,
                PRIMARY KEY ("company_id", "party_type", "token", "party_id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_party_search_token_party" ON "party_search_token" ("company_id", "party_type", "party_id", "token")
        `);
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_endpoint_filial"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_sefaz_endpoint" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "dist_url" varchar(300) NOT NULL,
                "event_url" varchar(300) NOT NULL,
                "ca_pem" text,
                "label" varchar(60) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "wait_seconds" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_sefaz_endpoint"(
                    "id",
                    "company_id",
                    "filial_id",
                    "dist_url",
                    "event_url",
                    "ca_pem",
                    "label",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "dist_url",
                "event_url",
                "ca_pem",
                "label",
                "created_at",
                "updated_at"
            FROM "sefaz_endpoint"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_endpoint"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_sefaz_endpoint"
                RENAME TO "sefaz_endpoint"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_endpoint_filial" ON "sefaz_endpoint" ("company_id", "filial_id")
        `);
    // Added by hand: index the customers and sellers that exist already.
    await backfillPartySearchTokens(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_endpoint_filial"
        `);
    await queryRunner.query(`
            ALTER TABLE "sefaz_endpoint"
                RENAME TO "temporary_sefaz_endpoint"
        `);
    await queryRunner.query(`
            CREATE TABLE "sefaz_endpoint" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "dist_url" varchar(300) NOT NULL,
                "event_url" varchar(300) NOT NULL,
                "ca_pem" text,
                "label" varchar(60) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "sefaz_endpoint"(
                    "id",
                    "company_id",
                    "filial_id",
                    "dist_url",
                    "event_url",
                    "ca_pem",
                    "label",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "dist_url",
                "event_url",
                "ca_pem",
                "label",
                "created_at",
                "updated_at"
            FROM "temporary_sefaz_endpoint"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sefaz_endpoint"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_endpoint_filial" ON "sefaz_endpoint" ("company_id", "filial_id")
        `);
    await queryRunner.query(`
            DROP INDEX "ix_party_search_token_party"
        `);
    await queryRunner.query(`
            DROP TABLE "party_search_token"
        `);
  }
}
