import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReceivableReturnCredit1796175125099 implements MigrationInterface {
  name = 'ReceivableReturnCredit1796175125099';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "receivable_return_credit" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "return_id" integer NOT NULL,
                "receivable_id" integer NOT NULL,
                "sales_order_id" integer NOT NULL,
                "amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_return_credit_return" ON "receivable_return_credit" ("company_id", "return_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_receivable_return_credit_return"
        `);
    await queryRunner.query(`
            DROP TABLE "receivable_return_credit"
        `);
  }
}
