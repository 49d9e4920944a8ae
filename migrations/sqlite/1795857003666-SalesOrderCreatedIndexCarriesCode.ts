import { MigrationInterface, QueryRunner } from 'typeorm';

export class SalesOrderCreatedIndexCarriesCode1795857003666 implements MigrationInterface {
  name = 'SalesOrderCreatedIndexCarriesCode1795857003666';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created" ON "sales_order" (
                "company_id",
                "filial_id",
                "created_at",
                "id",
                "code"
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_sales_order_filial_created"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_sales_order_filial_created" ON "sales_order" ("company_id", "filial_id", "created_at")
        `);
  }
}
