import { MigrationInterface, QueryRunner } from 'typeorm';

export class Ciap1796287988076 implements MigrationInterface {
  name = 'Ciap1796287988076';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`ciap_appropriation\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`month\` varchar(7) NOT NULL,
                \`taxed_exits\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_exits\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`exit_share\` decimal(12, 8) NOT NULL,
                \`parts_total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credited\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`part_count\` int NOT NULL,
                \`source\` varchar(200) NOT NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`ux_ciap_appropriation_month\` (\`company_id\`, \`filial_id\`, \`month\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`ciap_asset\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`entry_document_item_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`description\` varchar(500) NOT NULL,
                \`ncm\` varchar(8) NULL,
                \`entry_cfop\` varchar(4) NOT NULL,
                \`document_number\` varchar(20) NOT NULL,
                \`access_key\` varchar(44) NULL,
                \`supplier_document\` varchar(14) NOT NULL,
                \`entry_date\` date NOT NULL,
                \`first_month\` varchar(7) NOT NULL,
                \`icms_own\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_st\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_freight\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_difal\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_credit\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`part_count\` int NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`cancel_reason\` varchar(500) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_ciap_asset_document\` (\`company_id\`, \`entry_document_id\`),
                INDEX \`ix_ciap_asset_filial\` (\`company_id\`, \`filial_id\`, \`id\`),
                UNIQUE INDEX \`ux_ciap_asset_item\` (\`company_id\`, \`entry_document_item_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`ciap_part\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`asset_id\` int NOT NULL,
                \`number\` int NOT NULL,
                \`month\` varchar(7) NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`status\` varchar(12) NOT NULL,
                \`credited\` decimal(15, 2) NULL,
                \`appropriation_id\` int NULL,
                INDEX \`ix_ciap_part_month\` (\`company_id\`, \`filial_id\`, \`month\`, \`status\`),
                UNIQUE INDEX \`ux_ciap_part_number\` (\`asset_id\`, \`number\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ux_ciap_part_number\` ON \`ciap_part\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_ciap_part_month\` ON \`ciap_part\`
        `);
    await queryRunner.query(`
            DROP TABLE \`ciap_part\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_ciap_asset_item\` ON \`ciap_asset\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_ciap_asset_filial\` ON \`ciap_asset\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_ciap_asset_document\` ON \`ciap_asset\`
        `);
    await queryRunner.query(`
            DROP TABLE \`ciap_asset\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_ciap_appropriation_month\` ON \`ciap_appropriation\`
        `);
    await queryRunner.query(`
            DROP TABLE \`ciap_appropriation\`
        `);
  }
}
