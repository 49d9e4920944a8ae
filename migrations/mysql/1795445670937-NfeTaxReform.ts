import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfeTaxReform1795445670937 implements MigrationInterface {
  name = 'NfeTaxReform1795445670937';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`reform_taxes\` longtext NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\`
            ADD \`reform_taxes\` longtext NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`entry_document\` DROP COLUMN \`reform_taxes\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`reform_taxes\`
        `);
  }
}
