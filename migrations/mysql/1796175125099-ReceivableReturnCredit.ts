import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReceivableReturnCredit1796175125099 implements MigrationInterface {
  name = 'ReceivableReturnCredit1796175125099';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`receivable_return_credit\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`return_id\` int NOT NULL,
                \`receivable_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_receivable_return_credit_return\` (\`company_id\`, \`return_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_return_credit_return\` ON \`receivable_return_credit\`
        `);
    await queryRunner.query(`
            DROP TABLE \`receivable_return_credit\`
        `);
  }
}
