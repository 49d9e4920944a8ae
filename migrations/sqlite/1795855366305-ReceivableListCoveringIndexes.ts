import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReceivableListCoveringIndexes1795855366305 implements MigrationInterface {
  name = 'ReceivableListCoveringIndexes1795855366305';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_status_due"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_status_due" ON "receivable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id",
                "amount",
                "received_amount",
                "credited_amount"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_due" ON "receivable" (
                "company_id",
                "filial_id",
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
            DROP INDEX "ix_receivable_filial_due"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_receivable_filial_status_due"
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_status_due" ON "receivable" (
                "company_id",
                "filial_id",
                "status",
                "due_date",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_receivable_filial_due" ON "receivable" ("company_id", "filial_id", "due_date", "id")
        `);
  }
}
