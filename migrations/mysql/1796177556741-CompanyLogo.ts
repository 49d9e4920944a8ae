import { MigrationInterface, QueryRunner } from 'typeorm';

export class CompanyLogo1796177556741 implements MigrationInterface {
  name = 'CompanyLogo1796177556741';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`company_logo\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`content_type\` varchar(20) NOT NULL,
                \`image\` longblob NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_company_logo_company\` (\`company_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_company_logo_company\` ON \`company_logo\`
        `);
    await queryRunner.query(`
            DROP TABLE \`company_logo\`
        `);
  }
}
