import { MigrationInterface, QueryRunner } from 'typeorm';

export class PartySearchWords1795739230933 implements MigrationInterface {
  name = 'PartySearchWords1795739230933';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`party_search_token\`
            ADD \`words\` varchar(1000) NOT NULL DEFAULT ''
        `);
    // Added by hand: each row gets its party's words, gathered from the party's own index rows (a set:
    // their order does not matter to the search).
    await queryRunner.query(`
            UPDATE \`party_search_token\` t
            JOIN (
                SELECT company_id, party_type, party_id, CONCAT(' ', GROUP_CONCAT(token ORDER BY token SEPARATOR ' ')) AS words
                FROM \`party_search_token\`
                GROUP BY company_id, party_type, party_id
            ) w ON w.company_id = t.company_id AND w.party_type = t.party_type AND w.party_id = t.party_id
            SET t.words = w.words
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`party_search_token\` DROP COLUMN \`words\`
        `);
  }
}
