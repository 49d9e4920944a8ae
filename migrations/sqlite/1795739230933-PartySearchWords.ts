import { MigrationInterface, QueryRunner } from 'typeorm';

export class PartySearchWords1795739230933 implements MigrationInterface {
  name = 'PartySearchWords1795739230933';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_party_search_token_party"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_party_search_token" (
                "company_id" integer NOT NULL,
                "party_type" varchar(10) NOT NULL,
                "token" varchar(40) NOT NULL,
                "party_id" integer NOT NULL,
                "words" varchar(1000) NOT NULL DEFAULT (''),
                PRIMARY KEY ("company_id", "party_type", "token", "party_id")
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_party_search_token"("company_id", "party_type", "token", "party_id")
            SELECT "company_id",
                "party_type",
                "token",
                "party_id"
            FROM "party_search_token"
        `);
    await queryRunner.query(`
            DROP TABLE "party_search_token"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_party_search_token"
                RENAME TO "party_search_token"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_party_search_token_party" ON "party_search_token" ("company_id", "party_type", "party_id", "token")
        `);
    // Added by hand: each row gets its party's words, gathered from the party's own index rows (a set:
    // their order does not matter to the search).
    await queryRunner.query(`
            UPDATE "party_search_token"
            SET "words" = (
                SELECT ' ' || group_concat(e."token", ' ')
                FROM "party_search_token" e
                WHERE e."company_id" = "party_search_token"."company_id"
                    AND e."party_type" = "party_search_token"."party_type"
                    AND e."party_id" = "party_search_token"."party_id"
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_party_search_token_party"
        `);
    await queryRunner.query(`
            ALTER TABLE "party_search_token"
                RENAME TO "temporary_party_search_token"
        `);
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
            INSERT INTO "party_search_token"("company_id", "party_type", "token", "party_id")
            SELECT "company_id",
                "party_type",
                "token",
                "party_id"
            FROM "temporary_party_search_token"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_party_search_token"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_party_search_token_party" ON "party_search_token" ("company_id", "party_type", "party_id", "token")
        `);
  }
}
