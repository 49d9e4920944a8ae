import { MigrationInterface, QueryRunner } from "typeorm";
import { backfillPartySearchTokens } from "../backfill-party-search-tokens";

export class WordSearchIndex1795454806478 implements MigrationInterface {
    name = 'WordSearchIndex1795454806478'

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
        // Added by hand: index the customers and sellers that exist already.
        await backfillPartySearchTokens(queryRunner);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX "ix_party_search_token_party"
        `);
        await queryRunner.query(`
            DROP TABLE "party_search_token"
        `);
    }

}
