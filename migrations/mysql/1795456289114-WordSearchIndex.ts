import { MigrationInterface, QueryRunner } from 'typeorm';
import { backfillPartySearchTokens } from '../backfill-party-search-tokens';

export class WordSearchIndex1795456289114 implements MigrationInterface {
  name = 'WordSearchIndex1795456289114';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`party_search_token\` (
                \`company_id\` int NOT NULL,
                \`party_type\` varchar(10) NOT NULL,
                \`token\` varchar(40) NOT NULL,
                \`party_id\` int NOT NULL,
                INDEX \`ix_party_search_token_party\` (\`company_id\`, \`party_type\`, \`party_id\`, \`token\`),
                PRIMARY KEY (\`company_id\`, \`party_type\`, \`token\`, \`party_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`sefaz_endpoint\`
            ADD \`wait_seconds\` int NULL
        `);
    // Added by hand: index the customers and sellers that exist already.
    await backfillPartySearchTokens(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sefaz_endpoint\` DROP COLUMN \`wait_seconds\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_party_search_token_party\` ON \`party_search_token\`
        `);
    await queryRunner.query(`
            DROP TABLE \`party_search_token\`
        `);
  }
}
