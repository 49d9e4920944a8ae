import { MigrationInterface, QueryRunner } from 'typeorm';

export class OrderInsuranceOtherExpenses1796228860178 implements MigrationInterface {
  name = 'OrderInsuranceOtherExpenses1796228860178';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
            ADD \`insurance\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
            ADD \`other_expenses\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\` DROP COLUMN \`other_expenses\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_order\` DROP COLUMN \`insurance\`
        `);
  }
}
