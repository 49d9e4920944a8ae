import { MigrationInterface, QueryRunner } from 'typeorm';

export class CteFreight1795452937322 implements MigrationInterface {
  name = 'CteFreight1795452937322';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`cte_allocation\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`cte_id\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`item_id\` int NOT NULL,
                \`product_id\` int NULL,
                \`mode\` varchar(16) NOT NULL,
                \`basis\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`share\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_credit\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`quantity_received\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`quantity_in_stock\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`absorbed\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`unabsorbed\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`reversed_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`reversed_unabsorbed\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`reversed_at\` datetime(3) NULL,
                INDEX \`ix_cte_allocation_document\` (\`company_id\`, \`entry_document_id\`),
                INDEX \`ix_cte_allocation_cte\` (\`company_id\`, \`cte_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`cte_nfe\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`cte_id\` int NOT NULL,
                \`position\` int NOT NULL,
                \`nfe_key\` varchar(44) NOT NULL,
                INDEX \`ix_cte_nfe_key\` (\`company_id\`, \`nfe_key\`),
                INDEX \`ix_cte_nfe_cte\` (\`company_id\`, \`cte_id\`, \`position\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`cte\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`access_key\` varchar(44) NOT NULL,
                \`status\` varchar(12) NOT NULL,
                \`issuer_document\` varchar(14) NOT NULL,
                \`issuer_name\` varchar(150) NOT NULL,
                \`issuer_search\` varchar(150) NOT NULL,
                \`issuer_state_registration\` varchar(20) NULL,
                \`issuer_uf\` varchar(2) NULL,
                \`series\` varchar(3) NOT NULL,
                \`number\` varchar(9) NOT NULL,
                \`issued_at\` datetime(3) NOT NULL,
                \`issue_date\` date NOT NULL,
                \`environment\` varchar(12) NOT NULL,
                \`protocol_number\` varchar(20) NULL,
                \`authorized_at\` datetime(3) NULL,
                \`payer_role\` varchar(10) NOT NULL,
                \`service_total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`receivable\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`nfe_count\` int NOT NULL DEFAULT '0',
                \`xml_gzip\` longblob NOT NULL,
                \`xml_sha256\` varchar(64) NOT NULL,
                \`validation\` longtext NOT NULL,
                \`apportion_method\` varchar(10) NULL,
                \`apportioned_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`recoverable_icms\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`sold_share\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`entry_date\` date NULL,
                \`supplier_id\` int NULL,
                \`apportioned_at\` datetime(3) NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`cancel_reason\` varchar(255) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_cte_filial_issuer\` (\`company_id\`, \`filial_id\`, \`issuer_document\`),
                INDEX \`ix_cte_filial_status\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`status\`,
                    \`issued_at\`,
                    \`id\`
                ),
                INDEX \`ix_cte_filial_issued\` (\`company_id\`, \`filial_id\`, \`issued_at\`, \`id\`),
                UNIQUE INDEX \`uq_cte_company_key\` (\`company_id\`, \`access_key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`apportioned_freight\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_batch_file\`
            ADD \`cte_id\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\`
            ADD \`freight_cte_announced_at\` datetime(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\`
            ADD \`freight_cte_key\` varchar(44) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`payable\`
            ADD \`source_type\` varchar(16) NOT NULL DEFAULT 'ENTRY_DOCUMENT'
        `);
    await queryRunner.query(`
            ALTER TABLE \`payable\`
            ADD \`cte_id\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`stock_movement\`
            ADD \`value_adjustment\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_document\` ON \`payable\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`payable\` CHANGE \`entry_document_id\` \`entry_document_id\` int NULL
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_payable_cte\` ON \`payable\` (\`company_id\`, \`cte_id\`)
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_payable_document\` ON \`payable\` (
                \`company_id\`,
                \`entry_document_id\`,
                \`installment_number\`
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_payable_document\` ON \`payable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_cte\` ON \`payable\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`payable\` CHANGE \`entry_document_id\` \`entry_document_id\` int NOT NULL
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_payable_document\` ON \`payable\` (
                \`company_id\`,
                \`entry_document_id\`,
                \`installment_number\`
            )
        `);
    await queryRunner.query(`
            ALTER TABLE \`stock_movement\` DROP COLUMN \`value_adjustment\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`payable\` DROP COLUMN \`cte_id\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`payable\` DROP COLUMN \`source_type\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\` DROP COLUMN \`freight_cte_key\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_inbound\` DROP COLUMN \`freight_cte_announced_at\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfe_batch_file\` DROP COLUMN \`cte_id\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`apportioned_freight\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_cte_company_key\` ON \`cte\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cte_filial_issued\` ON \`cte\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cte_filial_status\` ON \`cte\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cte_filial_issuer\` ON \`cte\`
        `);
    await queryRunner.query(`
            DROP TABLE \`cte\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cte_nfe_cte\` ON \`cte_nfe\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cte_nfe_key\` ON \`cte_nfe\`
        `);
    await queryRunner.query(`
            DROP TABLE \`cte_nfe\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cte_allocation_cte\` ON \`cte_allocation\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cte_allocation_document\` ON \`cte_allocation\`
        `);
    await queryRunner.query(`
            DROP TABLE \`cte_allocation\`
        `);
  }
}
