import { MigrationInterface, QueryRunner } from 'typeorm';

export class SefazAuthoritySetting1796228621751 implements MigrationInterface {
  name = 'SefazAuthoritySetting1796228621751';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`sefaz_authority_setting\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`url_overrides\` text NOT NULL,
                \`nfe_contingency\` varchar(20) NOT NULL,
                \`nfce_contingency\` varchar(20) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_sefaz_authority_setting_filial\` (\`company_id\`, \`filial_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_sefaz_authority_setting_filial\` ON \`sefaz_authority_setting\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sefaz_authority_setting\`
        `);
  }
}
