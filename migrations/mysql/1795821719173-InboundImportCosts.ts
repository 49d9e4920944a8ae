import { MigrationInterface, QueryRunner } from 'typeorm';

export class InboundImportCosts1795821719173 implements MigrationInterface {
  name = 'InboundImportCosts1795821719173';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`import_duty\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`customs_expenses\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`customs_expenses\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`import_duty\`
        `);
  }
}
