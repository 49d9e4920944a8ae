import { MigrationInterface, QueryRunner } from 'typeorm';

export class FiscalPeriods1796228725068 implements MigrationInterface {
  name = 'FiscalPeriods1796228725068';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`fiscal_period\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`period\` varchar(7) NOT NULL,
                \`status\` varchar(8) NOT NULL,
                \`closed_at\` datetime(3) NULL,
                \`closed_by\` varchar(100) NULL,
                \`acknowledged\` longtext NULL,
                \`reopened_at\` datetime(3) NULL,
                \`reopened_by\` varchar(100) NULL,
                \`reopen_reason\` varchar(500) NULL,
                \`close_count\` int NOT NULL DEFAULT '0',
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`ux_fiscal_period\` (\`company_id\`, \`filial_id\`, \`period\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ux_fiscal_period\` ON \`fiscal_period\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fiscal_period\`
        `);
  }
}
