import { MigrationInterface, QueryRunner } from 'typeorm';

export class RuleReliefBenefit1796232048360 implements MigrationInterface {
  name = 'RuleReliefBenefit1796232048360';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`fiscal_operation_rule\`
            ADD \`benefit_code\` varchar(10) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_operation_rule\`
            ADD \`relief_reason\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_operation_rule\`
            ADD \`relief_deducted\` tinyint NOT NULL DEFAULT 0
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`fiscal_operation_rule\` DROP COLUMN \`relief_deducted\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_operation_rule\` DROP COLUMN \`relief_reason\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_operation_rule\` DROP COLUMN \`benefit_code\`
        `);
  }
}
