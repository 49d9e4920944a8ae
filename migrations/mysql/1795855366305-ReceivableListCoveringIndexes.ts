import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * The receivables list's two indexes cover what its summary reads (status and the amounts), so the
 * summary of a list's first rows reads the index alone (docs/decisions/bounded-list-totals.md).
 * One ALTER per direction: each index is replaced in the same statement (in place, DML goes on), so
 * the list is never without its index.
 */
export class ReceivableListCoveringIndexes1795855366305 implements MigrationInterface {
  name = 'ReceivableListCoveringIndexes1795855366305';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
                DROP INDEX \`ix_receivable_filial_status_due\`,
                DROP INDEX \`ix_receivable_filial_due\`,
                ADD INDEX \`ix_receivable_filial_status_due\` (\`company_id\`, \`filial_id\`, \`status\`, \`due_date\`, \`id\`, \`amount\`, \`received_amount\`, \`credited_amount\`),
                ADD INDEX \`ix_receivable_filial_due\` (\`company_id\`, \`filial_id\`, \`due_date\`, \`id\`, \`status\`, \`amount\`, \`received_amount\`, \`credited_amount\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
                DROP INDEX \`ix_receivable_filial_due\`,
                DROP INDEX \`ix_receivable_filial_status_due\`,
                ADD INDEX \`ix_receivable_filial_due\` (\`company_id\`, \`filial_id\`, \`due_date\`, \`id\`),
                ADD INDEX \`ix_receivable_filial_status_due\` (\`company_id\`, \`filial_id\`, \`status\`, \`due_date\`, \`id\`)
        `);
  }
}
