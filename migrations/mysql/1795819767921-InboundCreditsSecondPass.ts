import { MigrationInterface, QueryRunner } from 'typeorm';

export class InboundCreditsSecondPass1795819767921 implements MigrationInterface {
  name = 'InboundCreditsSecondPass1795819767921';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`cte_allocation\`
            ADD \`pis_credit\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`cte_allocation\`
            ADD \`cofins_credit\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`cte\`
            ADD \`pis_credit\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`cte\`
            ADD \`cofins_credit\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`credit_cbs\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`credit_ibs\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`credit_ibs\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`credit_cbs\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`cte\` DROP COLUMN \`cofins_credit\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`cte\` DROP COLUMN \`pis_credit\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`cte_allocation\` DROP COLUMN \`cofins_credit\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`cte_allocation\` DROP COLUMN \`pis_credit\`
        `);
  }
}
