import { MigrationInterface, QueryRunner } from 'typeorm';

export class CertificateTrustAndExpiry1796174576740 implements MigrationInterface {
  name = 'CertificateTrustAndExpiry1796174576740';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sefaz_certificate\`
            ADD \`trust\` varchar(12) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sefaz_certificate\`
            ADD \`trust_warning\` varchar(300) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sefaz_certificate\`
            ADD \`expiry_alerted_days\` int NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sefaz_certificate\` DROP COLUMN \`expiry_alerted_days\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sefaz_certificate\` DROP COLUMN \`trust_warning\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sefaz_certificate\` DROP COLUMN \`trust\`
        `);
  }
}
