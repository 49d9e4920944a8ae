import { MigrationInterface, QueryRunner } from 'typeorm';

export class CompanySmtp1795841360374 implements MigrationInterface {
  name = 'CompanySmtp1795841360374';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`company_smtp\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`host\` varchar(255) NOT NULL,
                \`port\` int NOT NULL,
                \`secure\` tinyint NOT NULL DEFAULT 0,
                \`username\` varchar(255) NULL,
                \`password_sealed\` longblob NULL,
                \`from_address\` varchar(255) NOT NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_company_smtp\` (\`company_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_company_smtp\` ON \`company_smtp\`
        `);
    await queryRunner.query(`
            DROP TABLE \`company_smtp\`
        `);
  }
}
