import { MigrationInterface, QueryRunner } from 'typeorm';

export class FiscalBooking1795446530521 implements MigrationInterface {
  name = 'FiscalBooking1795446530521';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`entry_cfop_rule\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`issuer_cfop\` varchar(4) NOT NULL,
                \`ncm\` varchar(8) NULL,
                \`product_id\` int NULL,
                \`scope_key\` varchar(40) NOT NULL,
                \`entry_cfop\` varchar(4) NOT NULL,
                \`operation_class\` varchar(30) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_entry_cfop_rule_issuer\` (\`company_id\`, \`issuer_cfop\`),
                UNIQUE INDEX \`uq_entry_cfop_rule_scope\` (\`company_id\`, \`scope_key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`entry_document_tax_credit\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`tax\` varchar(6) NOT NULL,
                \`base\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`tax_regime\` varchar(20) NOT NULL,
                \`entry_date\` date NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`reversed_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_entry_document_tax_credit_filial\` (\`company_id\`, \`filial_id\`, \`entry_date\`),
                INDEX \`ix_entry_document_tax_credit_document\` (\`company_id\`, \`entry_document_id\`, \`tax\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`third_party_stock_balance\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`owner_document\` varchar(14) NOT NULL,
                \`owner_supplier_id\` int NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_third_party_stock_balance\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`product_id\`,
                    \`owner_document\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`third_party_stock_movement\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`owner_document\` varchar(14) NOT NULL,
                \`direction\` varchar(3) NOT NULL,
                \`reason\` varchar(40) NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`balance_after\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`reference_type\` varchar(40) NOT NULL,
                \`reference_id\` int NOT NULL,
                \`reference_line_id\` int NULL,
                \`actor\` varchar(100) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_third_party_stock_movement_reference\` (\`company_id\`, \`reference_type\`, \`reference_id\`),
                INDEX \`ix_third_party_stock_movement_product\` (\`company_id\`, \`filial_id\`, \`product_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`entry_cfop\` varchar(4) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`entry_cfop_source\` varchar(12) NOT NULL DEFAULT 'NONE'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`operation_class\` varchar(30) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`operation_class_source\` varchar(12) NOT NULL DEFAULT 'NONE'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`credit_icms\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`credit_pis\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`credit_cofins\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`credit_ipi\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`credit_base\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`cost_total\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\`
            ADD \`purpose\` varchar(1) NOT NULL DEFAULT '1'
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\`
            ADD \`referenced_keys\` longtext NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\`
            ADD \`tax_regime\` varchar(20) NULL
        `);
    // Lines booked before net costs existed cost what they landed at (the Simples Nacional formula).
    await queryRunner.query('UPDATE `entry_document_item` SET `cost_total` = `landed_total`');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`entry_document\` DROP COLUMN \`tax_regime\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\` DROP COLUMN \`referenced_keys\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\` DROP COLUMN \`purpose\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`cost_total\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`credit_base\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`credit_ipi\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`credit_cofins\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`credit_pis\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`credit_icms\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`operation_class_source\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`operation_class\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`entry_cfop_source\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`entry_cfop\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_third_party_stock_movement_product\` ON \`third_party_stock_movement\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_third_party_stock_movement_reference\` ON \`third_party_stock_movement\`
        `);
    await queryRunner.query(`
            DROP TABLE \`third_party_stock_movement\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_third_party_stock_balance\` ON \`third_party_stock_balance\`
        `);
    await queryRunner.query(`
            DROP TABLE \`third_party_stock_balance\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_tax_credit_document\` ON \`entry_document_tax_credit\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_tax_credit_filial\` ON \`entry_document_tax_credit\`
        `);
    await queryRunner.query(`
            DROP TABLE \`entry_document_tax_credit\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_entry_cfop_rule_scope\` ON \`entry_cfop_rule\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_cfop_rule_issuer\` ON \`entry_cfop_rule\`
        `);
    await queryRunner.query(`
            DROP TABLE \`entry_cfop_rule\`
        `);
  }
}
