import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundNfeLastAttemptAndContingencyOf1796173756875 implements MigrationInterface {
  name = 'OutboundNfeLastAttemptAndContingencyOf1796173756875';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\`
            ADD \`last_attempt_at\` datetime(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\`
            ADD \`last_attempt_error\` varchar(255) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\`
            ADD \`contingency_of\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\`
            ADD \`prior_access_key\` varchar(44) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\`
            ADD \`prior_xml_gz\` longblob NULL
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_outbound_nfe_contingency_of\` ON \`outbound_nfe\` (\`company_id\`, \`contingency_of\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_outbound_nfe_contingency_of\` ON \`outbound_nfe\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` DROP COLUMN \`prior_xml_gz\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` DROP COLUMN \`prior_access_key\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` DROP COLUMN \`contingency_of\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` DROP COLUMN \`last_attempt_error\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` DROP COLUMN \`last_attempt_at\`
        `);
  }
}
