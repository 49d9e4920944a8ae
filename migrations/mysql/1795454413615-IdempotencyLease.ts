import { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyLease1795454413615 implements MigrationInterface {
  name = 'IdempotencyLease1795454413615';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`idempotency_key\`
            ADD \`response_headers\` longtext NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`idempotency_key\`
            ADD \`lease_owner\` varchar(36) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`idempotency_key\`
            ADD \`lease_expires_at\` datetime(3) NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`idempotency_key\` DROP COLUMN \`lease_expires_at\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`idempotency_key\` DROP COLUMN \`lease_owner\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`idempotency_key\` DROP COLUMN \`response_headers\`
        `);
  }
}
