import { MigrationInterface, QueryRunner } from 'typeorm';

export class StockTransfers1795843983373 implements MigrationInterface {
  name = 'StockTransfers1795843983373';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "stock_transfer" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "from_filial_id" integer NOT NULL,
                "to_filial_id" integer NOT NULL,
                "status" varchar(12) NOT NULL,
                "total" varchar(17) NOT NULL DEFAULT ('0.00'),
                "notes" varchar(500),
                "created_by" varchar(100) NOT NULL,
                "authorized_at" datetime,
                "cancelled_at" datetime,
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_transfer_to" ON "stock_transfer" ("company_id", "to_filial_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_transfer_from" ON "stock_transfer" ("company_id", "from_filial_id", "status")
        `);
    await queryRunner.query(`
            CREATE TABLE "stock_transfer_item" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "transfer_id" integer NOT NULL,
                "line_number" integer NOT NULL,
                "product_id" integer NOT NULL,
                "quantity" varchar(20) NOT NULL DEFAULT ('0.0000'),
                "unit_cost" varchar(23) NOT NULL DEFAULT ('0.0000000000'),
                "total" varchar(17) NOT NULL DEFAULT ('0.00')
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_stock_transfer_item_transfer" ON "stock_transfer_item" ("company_id", "transfer_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_stock_transfer_item_transfer"
        `);
    await queryRunner.query(`
            DROP TABLE "stock_transfer_item"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_transfer_from"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_stock_transfer_to"
        `);
    await queryRunner.query(`
            DROP TABLE "stock_transfer"
        `);
  }
}
