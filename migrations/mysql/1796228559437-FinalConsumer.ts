import { MigrationInterface, QueryRunner } from 'typeorm';

export class FinalConsumer1796228559437 implements MigrationInterface {
  name = 'FinalConsumer1796228559437';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`final_consumer\` tinyint NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
            ADD \`final_consumer\` tinyint NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\` DROP COLUMN \`final_consumer\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`final_consumer\`
        `);
  }
}
