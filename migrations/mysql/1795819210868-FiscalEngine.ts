import { MigrationInterface, QueryRunner } from 'typeorm';
import { insertFiscalShippedData } from '../fiscal-shipped-data';

export class FiscalEngine1795819210868 implements MigrationInterface {
  name = 'FiscalEngine1795819210868';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`fiscal_approximate_tax\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`ncm\` varchar(8) NOT NULL,
                \`ex\` varchar(3) NOT NULL DEFAULT '',
                \`federal_national_rate\` decimal(7, 4) NOT NULL,
                \`federal_imported_rate\` decimal(7, 4) NOT NULL,
                \`state_rate\` decimal(7, 4) NOT NULL,
                \`municipal_rate\` decimal(7, 4) NOT NULL,
                \`valid_from\` date NOT NULL,
                \`valid_to\` date NOT NULL,
                \`table_version\` varchar(20) NOT NULL,
                \`source\` varchar(60) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_fiscal_approximate_tax_ncm\` (\`company_id\`, \`ncm\`, \`ex\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`fiscal_operation_rule\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`tax_group_id\` int NOT NULL,
                \`operation\` varchar(10) NOT NULL,
                \`destination\` varchar(12) NOT NULL,
                \`contributor\` tinyint NOT NULL,
                \`valid_from\` date NOT NULL,
                \`valid_to\` date NULL,
                \`cfop\` varchar(4) NOT NULL,
                \`operation_nature\` varchar(60) NULL,
                \`icms_cst\` varchar(2) NULL,
                \`csosn\` varchar(3) NULL,
                \`icms_base_reduction\` decimal(7, 4) NULL,
                \`icms_rate\` decimal(7, 4) NULL,
                \`st_mode\` varchar(14) NOT NULL DEFAULT 'NONE',
                \`st_mva\` decimal(7, 4) NULL,
                \`st_base_reduction\` decimal(7, 4) NULL,
                \`pis_cst\` varchar(2) NULL,
                \`pis_rate\` decimal(7, 4) NULL,
                \`cofins_cst\` varchar(2) NULL,
                \`cofins_rate\` decimal(7, 4) NULL,
                \`ipi_cst\` varchar(2) NULL,
                \`ipi_rate\` decimal(7, 4) NULL,
                \`ipi_enquadramento\` varchar(3) NULL,
                \`ibs_cbs_cst\` varchar(3) NULL,
                \`ibs_cbs_class\` varchar(6) NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_fiscal_operation_rule_key\` (
                    \`company_id\`,
                    \`tax_group_id\`,
                    \`operation\`,
                    \`destination\`,
                    \`contributor\`,
                    \`valid_from\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`fiscal_rule_set\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`code\` varchar(10) NOT NULL,
                \`valid_from\` date NOT NULL,
                \`valid_to\` date NULL,
                \`pis_cofins\` tinyint NOT NULL,
                \`ibs_cbs\` tinyint NOT NULL,
                \`ibs_cbs_informative\` tinyint NOT NULL,
                \`cbs_rate\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`ibs_uf_rate\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`ibs_mun_rate\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`ibs_cbs_cst\` varchar(3) NOT NULL DEFAULT '000',
                \`ibs_cbs_class\` varchar(6) NOT NULL DEFAULT '000001',
                \`source\` varchar(200) NOT NULL,
                \`source_date\` date NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_fiscal_rule_set_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`fiscal_tax_group\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`code\` varchar(20) NOT NULL,
                \`name\` varchar(120) NOT NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_fiscal_tax_group_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`fiscal_uf_rate\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`uf\` varchar(2) NOT NULL,
                \`tax_group_id\` int NOT NULL DEFAULT '0',
                \`valid_from\` date NOT NULL,
                \`valid_to\` date NULL,
                \`internal_rate\` decimal(7, 4) NOT NULL,
                \`fcp_rate\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`difal_double_base\` tinyint NOT NULL DEFAULT 0,
                \`source\` varchar(200) NOT NULL,
                \`source_date\` date NOT NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_fiscal_uf_rate_key\` (\`company_id\`, \`uf\`, \`tax_group_id\`, \`valid_from\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`person_type\` varchar(8) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`ie_indicator\` int NOT NULL DEFAULT '9'
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`state_registration\` varchar(14) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`address_street\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`address_number\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`address_complement\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`address_district\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`municipality_code\` varchar(7) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`municipality_name\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`uf\` varchar(2) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`postal_code\` varchar(8) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`country_code\` varchar(4) NOT NULL DEFAULT '1058'
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\`
            ADD \`country_name\` varchar(60) NOT NULL DEFAULT 'BRASIL'
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\`
            ADD \`origin\` int NOT NULL DEFAULT '0'
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\`
            ADD \`taxable_unit\` varchar(6) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\`
            ADD \`taxable_factor\` decimal(15, 6) NOT NULL DEFAULT '1.000000'
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\`
            ADD \`tax_group_id\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`trade_name\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`address_street\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`address_number\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`address_complement\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`address_district\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`municipality_code\` varchar(7) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`municipality_name\` varchar(60) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`postal_code\` varchar(8) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`phone\` varchar(14) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`cnae\` varchar(7) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`simples_excess_sublimit\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`simples_credit_rate\` decimal(7, 4) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`industrial\` tinyint NOT NULL DEFAULT 0
        `);
    // Added by hand: the shipped ICMS/FCP rates per UF and the federal rule sets by date (company 0).
    await insertFiscalShippedData(queryRunner, (n) => `\`${n}\``);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`industrial\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`simples_credit_rate\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`simples_excess_sublimit\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`cnae\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`phone\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`postal_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`municipality_name\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`municipality_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`address_district\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`address_complement\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`address_number\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`address_street\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`trade_name\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\` DROP COLUMN \`tax_group_id\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\` DROP COLUMN \`taxable_factor\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\` DROP COLUMN \`taxable_unit\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`product\` DROP COLUMN \`origin\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`country_name\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`country_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`postal_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`uf\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`municipality_name\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`municipality_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`address_district\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`address_complement\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`address_number\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`address_street\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`state_registration\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`ie_indicator\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`customer\` DROP COLUMN \`person_type\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_uf_rate_key\` ON \`fiscal_uf_rate\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fiscal_uf_rate\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_tax_group_code\` ON \`fiscal_tax_group\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fiscal_tax_group\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_rule_set_code\` ON \`fiscal_rule_set\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fiscal_rule_set\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_operation_rule_key\` ON \`fiscal_operation_rule\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fiscal_operation_rule\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_approximate_tax_ncm\` ON \`fiscal_approximate_tax\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fiscal_approximate_tax\`
        `);
  }
}
