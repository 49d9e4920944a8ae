import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReceivableCustomerIndexByFilial1795860000000 implements MigrationInterface {
  name = 'ReceivableCustomerIndexByFilial1795860000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_receivable_customer"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_customer_due" ON "receivable" (
                "company_id",
                "filial_id",
                "customer_id",
                "due_date",
                "id",
                "status",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_customer_due"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_customer" ON "receivable" ("company_id", "customer_id", "due_date", "id")
        `);
  }
}
