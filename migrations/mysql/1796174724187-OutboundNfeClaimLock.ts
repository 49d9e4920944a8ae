import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundNfeClaimLock1796174724187 implements MigrationInterface {
  name = 'OutboundNfeClaimLock1796174724187';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`outbound_nfe_claim_lock\` (
                \`company_id\` int NOT NULL,
                \`scope\` varchar(24) NOT NULL,
                \`taken\` int NOT NULL DEFAULT '0',
                PRIMARY KEY (\`company_id\`, \`scope\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE \`outbound_nfe_claim_lock\`
        `);
  }
}
