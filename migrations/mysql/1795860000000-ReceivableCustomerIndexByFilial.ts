import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * A customer's receivables are listed per filial (the list by customer, the statement): the customer
 * index leads with the filial and covers the list's order and what its summary reads, so the page, the
 * summary and the capped count read the index alone (docs/decisions/bounded-list-totals.md).
 * One in-place ALTER: the list is never without an index for the customer.
 */
export class ReceivableCustomerIndexByFilial1795860000000 implements MigrationInterface {
  name = 'ReceivableCustomerIndexByFilial1795860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
                DROP INDEX \`ix_receivable_customer\`,
                ADD INDEX \`ix_receivable_filial_customer_due\` (\`company_id\`, \`filial_id\`, \`customer_id\`, \`due_date\`, \`id\`, \`status\`, \`amount\`, \`received_amount\`, \`credited_amount\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
                DROP INDEX \`ix_receivable_filial_customer_due\`,
                ADD INDEX \`ix_receivable_customer\` (\`company_id\`, \`customer_id\`, \`due_date\`, \`id\`)
        `);
  }
}
