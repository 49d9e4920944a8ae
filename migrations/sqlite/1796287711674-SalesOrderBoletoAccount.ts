import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * sales_order.boleto_bank_account_id: the collection account whose boletos the order's billings issue
 * (issue 46, docs/decisions/collection-boleto.md "Boleto on billing"). A plain ADD COLUMN rather than
 * the generator's copy of the table: the column is additive and nullable.
 */
export class SalesOrderBoletoAccount1796287711674 implements MigrationInterface {
  name = 'SalesOrderBoletoAccount1796287711674';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "sales_order" ADD COLUMN "boleto_bank_account_id" integer
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "sales_order" DROP COLUMN "boleto_bank_account_id"
        `);
  }
}
