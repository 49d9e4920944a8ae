import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * sales_order.created_day: the UTC date of created_at (written with it by every insert), and the index
 * (company, filial, created_day, code): a creation-date range sorted by code is read as one short range
 * of it per day, already in code order (docs/decisions/bounded-list-totals.md). The column is added
 * nullable, backfilled (created_at is UTC: the session's time zone does not enter DATE()), then made
 * NOT NULL with the index in one ALTER.
 */
export class SalesOrderCreatedDay1795872453132 implements MigrationInterface {
  name = 'SalesOrderCreatedDay1795872453132';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
            ADD \`created_day\` date NULL
        `);
    await queryRunner.query(`
            UPDATE \`sales_order\` SET \`created_day\` = DATE(\`created_at\`)
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
                MODIFY \`created_day\` date NOT NULL,
                ADD INDEX \`ix_sales_order_filial_created_day\` (\`company_id\`, \`filial_id\`, \`created_day\`, \`code\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_filial_created_day\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_order\` DROP COLUMN \`created_day\`
        `);
  }
}
