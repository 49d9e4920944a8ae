import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * sales_order.created_day: the UTC date of created_at, written with it by every insert and backfilled
 * here, and the creation-day index (docs/decisions/bounded-list-totals.md). SQLite lists keep reading
 * the creation-time index; the column is kept on both engines so one entity serves both. Nullable, as
 * on MySQL: an additive column.
 */
export class SalesOrderCreatedDay1795876169000 implements MigrationInterface {
  name = 'SalesOrderCreatedDay1795876169000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "sales_order" ADD COLUMN "created_day" date
        `);
    await queryRunner.query(`
            UPDATE "sales_order" SET "created_day" = date("created_at")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created_day" ON "sales_order" ("company_id", "filial_id", "created_day", "code")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created_day"
        `);
    await queryRunner.query(`
            ALTER TABLE "sales_order" DROP COLUMN "created_day"
        `);
  }
}
