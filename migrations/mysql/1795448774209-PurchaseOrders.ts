import { MigrationInterface, QueryRunner } from 'typeorm';

export class PurchaseOrders1795448774209 implements MigrationInterface {
  name = 'PurchaseOrders1795448774209';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`purchase_order_item\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`purchase_order_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`description\` varchar(200) NOT NULL,
                \`unit\` varchar(6) NOT NULL,
                \`supplier_product_code\` varchar(60) NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_price\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`expected_date\` date NULL,
                \`received_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`cancelled_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`is_open\` tinyint NOT NULL DEFAULT 1,
                INDEX \`ix_purchase_order_item_product\` (\`company_id\`, \`product_id\`, \`is_open\`),
                INDEX \`ix_purchase_order_item_order\` (\`company_id\`, \`purchase_order_id\`, \`line_number\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`purchase_order_receipt\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`purchase_order_id\` int NOT NULL,
                \`purchase_order_item_id\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`entry_document_item_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`document_number\` varchar(9) NOT NULL,
                \`document_series\` varchar(3) NOT NULL,
                \`access_key\` varchar(44) NULL,
                \`issue_date\` date NOT NULL,
                \`entry_date\` date NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`invoice_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`invoice_unit\` varchar(6) NOT NULL,
                \`conversion_factor\` decimal(15, 6) NOT NULL DEFAULT '1.000000',
                \`unit_price\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`order_unit_price\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`status\` varchar(10) NOT NULL,
                \`received_at\` datetime(3) NOT NULL,
                \`cancelled_at\` datetime(3) NULL,
                INDEX \`ix_purchase_order_receipt_document\` (\`company_id\`, \`entry_document_id\`, \`status\`),
                INDEX \`ix_purchase_order_receipt_order\` (\`company_id\`, \`purchase_order_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`purchase_order\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`code\` int NOT NULL,
                \`status\` varchar(20) NOT NULL,
                \`supplier_id\` int NOT NULL,
                \`supplier_document\` varchar(14) NOT NULL,
                \`supplier_name\` varchar(150) NOT NULL,
                \`expected_date\` date NULL,
                \`payment_installments\` int NULL,
                \`payment_days\` int NULL,
                \`freight_terms\` varchar(12) NULL,
                \`notes\` varchar(1000) NULL,
                \`total_products\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`approved_at\` datetime(3) NULL,
                \`approved_by\` varchar(100) NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`cancel_reason\` varchar(500) NULL,
                \`closed_at\` datetime(3) NULL,
                \`close_reason\` varchar(500) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_purchase_order_supplier\` (\`company_id\`, \`supplier_id\`),
                INDEX \`ix_purchase_order_filial_supplier\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`supplier_document\`,
                    \`status\`,
                    \`code\`
                ),
                INDEX \`ix_purchase_order_filial_status\` (\`company_id\`, \`filial_id\`, \`status\`, \`code\`),
                INDEX \`ix_purchase_order_filial_code\` (\`company_id\`, \`filial_id\`, \`code\`),
                UNIQUE INDEX \`uq_purchase_order_company_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\`
            ADD \`purchase_order_item_id\` int NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`entry_document_item\` DROP COLUMN \`purchase_order_item_id\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_purchase_order_company_code\` ON \`purchase_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_filial_code\` ON \`purchase_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_filial_status\` ON \`purchase_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_filial_supplier\` ON \`purchase_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_supplier\` ON \`purchase_order\`
        `);
    await queryRunner.query(`
            DROP TABLE \`purchase_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_receipt_order\` ON \`purchase_order_receipt\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_receipt_document\` ON \`purchase_order_receipt\`
        `);
    await queryRunner.query(`
            DROP TABLE \`purchase_order_receipt\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_item_order\` ON \`purchase_order_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_purchase_order_item_product\` ON \`purchase_order_item\`
        `);
    await queryRunner.query(`
            DROP TABLE \`purchase_order_item\`
        `);
  }
}
