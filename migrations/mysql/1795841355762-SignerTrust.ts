import { MigrationInterface, QueryRunner } from 'typeorm';

export class SignerTrust1795841355762 implements MigrationInterface {
  name = 'SignerTrust1795841355762';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\`
            ADD \`authority_check\` varchar(16) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\`
            ADD \`authority_check_cstat\` varchar(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\`
            ADD \`authority_checked_at\` datetime(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`allow_unverified_uploads\` tinyint NOT NULL DEFAULT 0
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`allow_unverified_uploads\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\` DROP COLUMN \`authority_checked_at\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\` DROP COLUMN \`authority_check_cstat\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\` DROP COLUMN \`authority_check\`
        `);
  }
}
