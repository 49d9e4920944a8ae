import { MigrationInterface, QueryRunner } from 'typeorm';

export class SupplierReturns1795842466157 implements MigrationInterface {
  name = 'SupplierReturns1795842466157';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`payable_deduction\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`payable_id\` int NOT NULL,
                \`source_type\` varchar(20) NOT NULL,
                \`source_id\` int NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`status_before\` varchar(16) NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`reversed_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_payable_deduction_source\` (\`company_id\`, \`source_type\`, \`source_id\`),
                INDEX \`ix_payable_deduction_payable\` (\`company_id\`, \`payable_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`supplier_credit\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`supplier_id\` int NOT NULL,
                \`supplier_document\` varchar(14) NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`source_type\` varchar(20) NOT NULL,
                \`source_id\` int NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`status\` varchar(10) NOT NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_supplier_credit_source\` (\`company_id\`, \`source_type\`, \`source_id\`),
                INDEX \`ix_supplier_credit_supplier\` (\`company_id\`, \`supplier_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`supplier_return_item\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`supplier_return_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`entry_document_item_id\` int NOT NULL,
                \`product_id\` int NULL,
                \`purchase_order_item_id\` int NULL,
                \`cfop\` varchar(4) NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`conversion_factor\` decimal(15, 6) NOT NULL DEFAULT '1.000000',
                \`stock_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_price\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`products_value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`freight\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`insurance\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`other_expenses\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_base\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`ipi_base\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`ipi\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_st_base\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_st\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`entry_unit_cost\` decimal(21, 10) NULL DEFAULT '0.0000000000',
                \`stock_value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_icms\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_pis\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_cofins\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_ipi\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_cbs\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_ibs\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                INDEX \`ix_supplier_return_item_entry_item\` (\`company_id\`, \`entry_document_item_id\`),
                INDEX \`ix_supplier_return_item_return\` (
                    \`company_id\`,
                    \`supplier_return_id\`,
                    \`line_number\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`supplier_return\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`code\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`referenced_key\` varchar(44) NULL,
                \`supplier_id\` int NOT NULL,
                \`supplier_document\` varchar(14) NOT NULL,
                \`supplier_name\` varchar(150) NOT NULL,
                \`status\` varchar(12) NOT NULL,
                \`reason\` varchar(255) NOT NULL,
                \`invoice_id\` int NULL,
                \`products_value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`freight\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`insurance\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`other_expenses\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`ipi\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_st\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`stock_value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_icms\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_pis\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_cofins\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_ipi\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_cbs\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credit_ibs\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`payables_deducted\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`supplier_credit\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`actor\` varchar(100) NOT NULL,
                \`request_key\` varchar(255) NULL,
                \`authorized_at\` datetime(3) NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_supplier_return_request\` (\`company_id\`, \`request_key\`),
                INDEX \`ix_supplier_return_invoice\` (\`company_id\`, \`invoice_id\`),
                INDEX \`ix_supplier_return_document\` (\`company_id\`, \`entry_document_id\`, \`status\`),
                INDEX \`ix_supplier_return_filial\` (\`company_id\`, \`filial_id\`, \`id\`),
                UNIQUE INDEX \`uq_supplier_return_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_supplier_return_code\` ON \`supplier_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_return_filial\` ON \`supplier_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_return_document\` ON \`supplier_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_return_invoice\` ON \`supplier_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_supplier_return_request\` ON \`supplier_return\`
        `);
    await queryRunner.query(`
            DROP TABLE \`supplier_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_return_item_return\` ON \`supplier_return_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_return_item_entry_item\` ON \`supplier_return_item\`
        `);
    await queryRunner.query(`
            DROP TABLE \`supplier_return_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_credit_supplier\` ON \`supplier_credit\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_credit_source\` ON \`supplier_credit\`
        `);
    await queryRunner.query(`
            DROP TABLE \`supplier_credit\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_deduction_payable\` ON \`payable_deduction\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_deduction_source\` ON \`payable_deduction\`
        `);
    await queryRunner.query(`
            DROP TABLE \`payable_deduction\`
        `);
  }
}
