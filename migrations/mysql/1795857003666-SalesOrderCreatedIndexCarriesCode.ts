import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The sales-order creation index carries the code (after the id, so the createdAt sort still reads it
 * in order): a date range sorted by code is sorted from this index alone (docs/decisions/bounded-list-totals.md).
 * One in-place ALTER: the list is never without the index.
 */
export class SalesOrderCreatedIndexCarriesCode1795857003666 implements MigrationInterface {
  name = 'SalesOrderCreatedIndexCarriesCode1795857003666';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
                DROP INDEX \`ix_sales_order_filial_created\`,
                ADD INDEX \`ix_sales_order_filial_created\` (\`company_id\`, \`filial_id\`, \`created_at\`, \`id\`, \`code\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
                DROP INDEX \`ix_sales_order_filial_created\`,
                ADD INDEX \`ix_sales_order_filial_created\` (\`company_id\`, \`filial_id\`, \`created_at\`)
        `);
  }
}
