import { MigrationInterface, QueryRunner } from 'typeorm';

export class StAgreements1796231005309 implements MigrationInterface {
  name = 'StAgreements1796231005309';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`fiscal_st_agreement\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`origin_uf\` varchar(2) NOT NULL,
                \`destination_uf\` varchar(2) NOT NULL,
                \`ncm_prefix\` varchar(8) NOT NULL,
                \`cest\` varchar(7) NOT NULL DEFAULT '',
                \`mva\` decimal(7, 4) NOT NULL,
                \`destination_internal_rate\` decimal(7, 4) NULL,
                \`valid_from\` date NOT NULL,
                \`valid_to\` date NULL,
                \`source\` varchar(200) NOT NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_fiscal_st_agreement_key\` (
                    \`company_id\`,
                    \`origin_uf\`,
                    \`destination_uf\`,
                    \`ncm_prefix\`,
                    \`cest\`,
                    \`valid_from\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_st_agreement_key\` ON \`fiscal_st_agreement\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fiscal_st_agreement\`
        `);
  }
}
