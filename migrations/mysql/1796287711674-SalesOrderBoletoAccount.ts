import { MigrationInterface, QueryRunner } from 'typeorm';

/* sales_order.boleto_bank_account_id (issue 46, docs/decisions/collection-boleto.md "Boleto on billing"). */
export class SalesOrderBoletoAccount1796287711674 implements MigrationInterface {
  name = 'SalesOrderBoletoAccount1796287711674';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
            ADD \`boleto_bank_account_id\` int NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\` DROP COLUMN \`boleto_bank_account_id\`
        `);
  }
}
