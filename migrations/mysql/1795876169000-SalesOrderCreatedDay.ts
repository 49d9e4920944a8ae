import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * sales_order.created_day: the UTC date of created_at, written with it by every insert, and the index
 * (company, filial, created_day, code): a creation-date range sorted by code is read as one short range
 * of it per day, already in code order (docs/decisions/bounded-list-totals.md). Additive, so the
 * previous version keeps serving during a rolling restart (docs/operations.md): the column is nullable,
 * and the rows that version still writes without it are read by created_at (byCreationDays' null
 * part). The backfill's DATE() is the UTC date: created_at is stored in UTC.
 */
export class SalesOrderCreatedDay1795876169000 implements MigrationInterface {
  name = 'SalesOrderCreatedDay1795876169000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
            ADD \`created_day\` date NULL
        `);
    await queryRunner.query(`
            UPDATE \`sales_order\` SET \`created_day\` = DATE(\`created_at\`) WHERE \`created_day\` IS NULL
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_sales_order_filial_created_day\` ON \`sales_order\` (\`company_id\`, \`filial_id\`, \`created_day\`, \`code\`)
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
