import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795311672919 implements MigrationInterface {
  name = 'Initial1795311672919';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`audit_log\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`entity\` varchar(40) NOT NULL,
                \`entity_id\` int NOT NULL,
                \`action\` varchar(40) NOT NULL,
                \`actor\` varchar(100) NOT NULL,
                \`request_id\` varchar(64) NULL,
                \`changes\` longtext NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_audit_entity\` (\`company_id\`, \`entity\`, \`entity_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`idempotency_key\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`key\` varchar(120) NOT NULL,
                \`request_hash\` varchar(64) NOT NULL,
                \`state\` varchar(12) NOT NULL,
                \`response_status\` int NULL,
                \`response_body\` longtext NULL,
                \`response_content_type\` varchar(60) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_idempotency_key\` (\`company_id\`, \`key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`outbox_event\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NULL,
                \`type\` varchar(60) NOT NULL,
                \`aggregate_type\` varchar(40) NOT NULL,
                \`aggregate_id\` int NOT NULL,
                \`data\` longtext NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_outbox_company_type\` (\`company_id\`, \`type\`, \`id\`),
                INDEX \`ix_outbox_company\` (\`company_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`customer\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`name\` varchar(150) NOT NULL,
                \`trade_name\` varchar(150) NULL,
                \`search_name\` varchar(150) NOT NULL,
                \`search_trade_name\` varchar(150) NULL,
                \`document\` varchar(14) NULL,
                \`email\` varchar(150) NULL,
                \`phone\` varchar(20) NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_customer_company_document\` (\`company_id\`, \`document\`),
                INDEX \`ix_customer_company_trade\` (\`company_id\`, \`search_trade_name\`),
                INDEX \`ix_customer_company_name\` (\`company_id\`, \`search_name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sequence\` (
                \`company_id\` int NOT NULL,
                \`name\` varchar(40) NOT NULL,
                \`value\` int NOT NULL DEFAULT '0',
                PRIMARY KEY (\`company_id\`, \`name\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`payment_method\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`code\` varchar(30) NOT NULL,
                \`name\` varchar(80) NOT NULL,
                \`kind\` varchar(20) NOT NULL,
                \`gives_change\` tinyint NOT NULL DEFAULT 0,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_payment_method_company_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`product\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`code\` varchar(30) NOT NULL,
                \`name\` varchar(200) NOT NULL,
                \`search_name\` varchar(200) NOT NULL,
                \`unit\` varchar(6) NOT NULL,
                \`gtin\` varchar(14) NULL,
                \`ncm\` varchar(8) NULL,
                \`cest\` varchar(7) NULL,
                \`price\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`stock_controlled\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_product_company_search\` (\`company_id\`, \`search_name\`),
                INDEX \`ix_product_company_gtin\` (\`company_id\`, \`gtin\`),
                UNIQUE INDEX \`uq_product_company_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`seller\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`name\` varchar(120) NOT NULL,
                \`alias\` varchar(60) NULL,
                \`search_name\` varchar(200) NOT NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_seller_company_name\` (\`company_id\`, \`search_name\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`supplier\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`document\` varchar(14) NOT NULL,
                \`name\` varchar(150) NOT NULL,
                \`trade_name\` varchar(150) NULL,
                \`search_name\` varchar(150) NOT NULL,
                \`state_registration\` varchar(20) NULL,
                \`uf\` varchar(2) NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_supplier_company_name\` (\`company_id\`, \`search_name\`),
                UNIQUE INDEX \`uq_supplier_company_document\` (\`company_id\`, \`document\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`entry_document_installment\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`number\` int NOT NULL,
                \`due_date\` date NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                INDEX \`ix_entry_document_installment_document\` (\`company_id\`, \`entry_document_id\`, \`number\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`entry_document_item\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`product_id\` int NULL,
                \`review_status\` varchar(10) NOT NULL,
                \`supplier_product_code\` varchar(60) NULL,
                \`description\` varchar(200) NOT NULL,
                \`ncm\` varchar(8) NULL,
                \`cfop\` varchar(4) NULL,
                \`unit\` varchar(6) NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_price\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`freight\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`insurance\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`other_expenses\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`ipi\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`icms_st\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`landed_total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`taxes\` longtext NOT NULL,
                \`conversion_factor\` decimal(15, 6) NOT NULL DEFAULT '1.000000',
                \`stock_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_cost\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`declared_description\` varchar(200) NULL,
                \`declared_unit\` varchar(6) NULL,
                \`declared_quantity\` decimal(18, 4) NULL,
                \`declared_unit_price\` decimal(21, 10) NULL,
                \`declared_ncm\` varchar(8) NULL,
                \`declared_cfop\` varchar(4) NULL,
                INDEX \`ix_entry_document_item_product\` (\`company_id\`, \`product_id\`),
                INDEX \`ix_entry_document_item_document\` (\`company_id\`, \`entry_document_id\`, \`line_number\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`entry_document\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`origin\` varchar(10) NOT NULL,
                \`model\` varchar(2) NOT NULL,
                \`series\` varchar(3) NOT NULL,
                \`number\` varchar(9) NOT NULL,
                \`access_key\` varchar(44) NULL,
                \`issue_date\` date NOT NULL,
                \`entry_date\` date NOT NULL,
                \`supplier_id\` int NOT NULL,
                \`supplier_document\` varchar(14) NOT NULL,
                \`supplier_name\` varchar(150) NOT NULL,
                \`supplier_state_registration\` varchar(20) NULL,
                \`supplier_uf\` varchar(2) NULL,
                \`operation_nature\` varchar(60) NULL,
                \`notes\` varchar(2000) NULL,
                \`total_products\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_freight\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_insurance\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_other_expenses\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_ipi\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total_icms_st\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`expected_totals\` longtext NULL,
                \`item_count\` int NOT NULL DEFAULT '0',
                \`pending_item_count\` int NOT NULL DEFAULT '0',
                \`cancel_reason\` varchar(255) NULL,
                \`confirmed_at\` datetime(3) NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`nfe_cancelled_at\` datetime(3) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_entry_document_supplier\` (\`company_id\`, \`supplier_id\`),
                INDEX \`ix_entry_document_number\` (\`company_id\`, \`number\`),
                INDEX \`ix_entry_document_supplier_document\` (
                    \`company_id\`,
                    \`supplier_document\`,
                    \`status\`,
                    \`entry_date\`
                ),
                INDEX \`ix_entry_document_filial_status\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`status\`,
                    \`entry_date\`,
                    \`id\`
                ),
                INDEX \`ix_entry_document_filial_entry\` (\`company_id\`, \`filial_id\`, \`entry_date\`, \`id\`),
                UNIQUE INDEX \`uq_entry_document_access_key\` (\`company_id\`, \`access_key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`webhook_delivery\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`subscription_id\` int NOT NULL,
                \`event_id\` int NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`attempts\` int NOT NULL DEFAULT '0',
                \`next_attempt_at\` datetime(3) NOT NULL,
                \`locked_until\` datetime(3) NULL,
                \`last_status_code\` int NULL,
                \`last_error\` varchar(300) NULL,
                \`delivered_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_webhook_delivery_company\` (\`company_id\`, \`subscription_id\`, \`id\`),
                INDEX \`ix_webhook_delivery_due\` (\`status\`, \`next_attempt_at\`),
                UNIQUE INDEX \`uq_webhook_delivery\` (\`subscription_id\`, \`event_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`webhook_subscription\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`url\` varchar(500) NOT NULL,
                \`types\` longtext NOT NULL,
                \`description\` varchar(200) NULL,
                \`secret\` varchar(80) NOT NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`last_event_id\` int NOT NULL DEFAULT '0',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_webhook_subscription_active\` (\`active\`, \`id\`),
                INDEX \`ix_webhook_subscription_company\` (\`company_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`nfe_inbound_event\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`inbound_id\` int NOT NULL,
                \`type\` varchar(30) NOT NULL,
                \`event_code\` varchar(6) NULL,
                \`sequence\` int NULL,
                \`protocol\` varchar(20) NULL,
                \`description\` varchar(255) NOT NULL,
                \`actor\` varchar(100) NOT NULL,
                \`occurred_at\` datetime(3) NOT NULL,
                \`data\` longtext NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_nfe_inbound_event_inbound\` (\`company_id\`, \`inbound_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`payable\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`entry_document_id\` int NOT NULL,
                \`supplier_id\` int NOT NULL,
                \`supplier_document\` varchar(14) NOT NULL,
                \`supplier_name\` varchar(150) NOT NULL,
                \`document_number\` varchar(20) NOT NULL,
                \`installment_number\` int NOT NULL,
                \`issue_date\` date NOT NULL,
                \`due_date\` date NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`paid_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`status\` varchar(16) NOT NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_payable_supplier\` (\`company_id\`, \`supplier_id\`),
                INDEX \`ix_payable_document\` (
                    \`company_id\`,
                    \`entry_document_id\`,
                    \`installment_number\`
                ),
                INDEX \`ix_payable_filial_status_due\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`status\`,
                    \`due_date\`,
                    \`id\`
                ),
                INDEX \`ix_payable_filial_due\` (\`company_id\`, \`filial_id\`, \`due_date\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`product_map_entry\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`supplier_document\` varchar(14) NOT NULL,
                \`supplier_product_code\` varchar(60) COLLATE "utf8mb4_bin" NOT NULL,
                \`supplier_unit\` varchar(6) NOT NULL,
                \`supplier_description\` varchar(120) NULL,
                \`gtin\` varchar(14) NULL,
                \`product_id\` int NOT NULL,
                \`conversion_factor\` decimal(15, 6) NOT NULL DEFAULT '1.000000',
                \`use_count\` int NOT NULL DEFAULT '0',
                \`last_used_at\` datetime(3) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_product_map_entry_product\` (\`company_id\`, \`product_id\`),
                UNIQUE INDEX \`uq_product_map_entry_supplier_code\` (
                    \`company_id\`,
                    \`supplier_document\`,
                    \`supplier_product_code\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`product_search_term\` (
                \`company_id\` int NOT NULL,
                \`token\` varchar(40) NOT NULL,
                \`product_count\` int NOT NULL,
                PRIMARY KEY (\`company_id\`, \`token\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`nfe_inbound\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`access_key\` varchar(44) NOT NULL,
                \`issuer_document\` varchar(14) NOT NULL,
                \`issuer_name\` varchar(150) NOT NULL,
                \`issuer_search\` varchar(150) NOT NULL,
                \`issuer_uf\` varchar(2) NULL,
                \`model\` varchar(2) NOT NULL DEFAULT '55',
                \`series\` varchar(3) NULL,
                \`number\` varchar(9) NULL,
                \`issued_at\` datetime(3) NOT NULL,
                \`issue_date\` date NOT NULL,
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`nsu\` varchar(15) NULL,
                \`kind\` varchar(10) NOT NULL,
                \`authority_status\` varchar(12) NOT NULL,
                \`environment\` varchar(12) NOT NULL DEFAULT 'PRODUCTION',
                \`protocol_number\` varchar(20) NULL,
                \`authorized_at\` datetime(3) NULL,
                \`manifestation\` varchar(14) NOT NULL DEFAULT 'NONE',
                \`manifestation_protocol\` varchar(20) NULL,
                \`manifestation_at\` datetime(3) NULL,
                \`has_xml\` tinyint NOT NULL DEFAULT 0,
                \`xml_gzip\` longblob NULL,
                \`xml_sha256\` varchar(64) NULL,
                \`source\` varchar(6) NOT NULL,
                \`import_status\` varchar(10) NOT NULL DEFAULT 'PENDING',
                \`entry_document_id\` int NULL,
                \`validation\` longtext NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_nfe_inbound_entry_document\` (\`company_id\`, \`entry_document_id\`),
                INDEX \`ix_nfe_inbound_company_key\` (\`company_id\`, \`access_key\`),
                INDEX \`ix_nfe_inbound_filial_issue_date\` (\`company_id\`, \`filial_id\`, \`issue_date\`),
                INDEX \`ix_nfe_inbound_filial_issuer\` (\`company_id\`, \`filial_id\`, \`issuer_document\`),
                INDEX \`ix_nfe_inbound_filial_import\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`import_status\`,
                    \`issued_at\`,
                    \`id\`
                ),
                INDEX \`ix_nfe_inbound_filial_issued\` (\`company_id\`, \`filial_id\`, \`issued_at\`, \`id\`),
                UNIQUE INDEX \`uq_nfe_inbound_filial_key\` (\`company_id\`, \`filial_id\`, \`access_key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`product_search_token\` (
                \`company_id\` int NOT NULL,
                \`token\` varchar(40) NOT NULL,
                \`product_id\` int NOT NULL,
                \`code\` varchar(30) NOT NULL,
                INDEX \`ix_product_search_token_product\` (\`company_id\`, \`product_id\`),
                PRIMARY KEY (\`company_id\`, \`token\`, \`product_id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`quick_sale_configuration\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`enabled\` tinyint NOT NULL DEFAULT 0,
                \`default_customer_id\` int NULL,
                \`default_seller_id\` int NULL,
                \`payment_methods\` longtext NOT NULL,
                \`default_payment_method\` varchar(30) NULL,
                \`allow_negative_stock\` tinyint NOT NULL DEFAULT 0,
                \`require_customer\` tinyint NOT NULL DEFAULT 0,
                \`max_discount_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_quick_sale_configuration_filial\` (\`company_id\`, \`filial_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sale_payment\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`payment_method_id\` int NOT NULL,
                \`method_code\` varchar(30) NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`change_given\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_sale_payment_order\` (\`company_id\`, \`sales_order_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sales_return_item\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`return_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`sales_order_item_id\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`restock\` tinyint NOT NULL,
                \`unit_cost\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`refund_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                INDEX \`ix_sales_return_item_order_item\` (\`company_id\`, \`sales_order_item_id\`),
                INDEX \`ix_sales_return_item_return\` (\`company_id\`, \`return_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sales_return\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`code\` int NOT NULL,
                \`customer_id\` int NOT NULL,
                \`reason\` varchar(500) NOT NULL,
                \`refund_method\` varchar(30) NOT NULL,
                \`refund_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`actor\` varchar(100) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_sales_return_customer\` (\`company_id\`, \`filial_id\`, \`customer_id\`, \`id\`),
                INDEX \`ix_sales_return_filial\` (\`company_id\`, \`filial_id\`, \`id\`),
                UNIQUE INDEX \`uq_sales_return_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`fulfillment_item\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`fulfillment_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`sales_order_item_id\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_cost\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                INDEX \`ix_fulfillment_item_order_item\` (\`company_id\`, \`sales_order_item_id\`),
                INDEX \`ix_fulfillment_item_fulfillment\` (\`company_id\`, \`fulfillment_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`fulfillment\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`actor\` varchar(100) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_fulfillment_order\` (\`company_id\`, \`sales_order_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sales_order_item\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`description\` varchar(200) NOT NULL,
                \`unit\` varchar(6) NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_price\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`order_discount_share\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`fulfilled_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`returned_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`cancelled_quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`origins\` longtext NULL,
                INDEX \`ix_sales_order_item_product\` (\`company_id\`, \`product_id\`),
                INDEX \`ix_sales_order_item_order\` (\`company_id\`, \`sales_order_id\`, \`line_number\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sales_order\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`code\` int NOT NULL,
                \`type\` varchar(10) NOT NULL,
                \`flow_mode\` varchar(12) NOT NULL DEFAULT 'STANDARD',
                \`status\` varchar(20) NOT NULL,
                \`customer_id\` int NULL,
                \`seller_id\` int NULL,
                \`alias\` varchar(60) NULL,
                \`search_alias\` varchar(60) NULL,
                \`notes\` varchar(1000) NULL,
                \`gross_total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`items_discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`freight\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`valid_until\` date NULL,
                \`grouped_into_id\` int NULL,
                \`cancel_reason\` varchar(500) NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_sales_order_grouped_into\` (\`company_id\`, \`grouped_into_id\`),
                INDEX \`ix_sales_order_filial_created\` (\`company_id\`, \`filial_id\`, \`created_at\`),
                INDEX \`ix_sales_order_filial_alias\` (\`company_id\`, \`filial_id\`, \`search_alias\`),
                INDEX \`ix_sales_order_filial_seller\` (\`company_id\`, \`filial_id\`, \`seller_id\`, \`code\`),
                INDEX \`ix_sales_order_filial_customer\` (\`company_id\`, \`filial_id\`, \`customer_id\`, \`code\`),
                INDEX \`ix_sales_order_filial_status\` (\`company_id\`, \`filial_id\`, \`status\`, \`code\`),
                INDEX \`ix_sales_order_filial_code\` (\`company_id\`, \`filial_id\`, \`code\`),
                UNIQUE INDEX \`uq_sales_order_company_code\` (\`company_id\`, \`code\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sefaz_dfe_log\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`service\` varchar(20) NOT NULL,
                \`operation\` varchar(20) NOT NULL,
                \`endpoint\` varchar(300) NOT NULL,
                \`attempt\` int NOT NULL DEFAULT '1',
                \`request_gz\` longblob NOT NULL,
                \`response_gz\` longblob NULL,
                \`http_status\` int NULL,
                \`cStat\` varchar(3) NULL,
                \`x_motivo\` varchar(255) NULL,
                \`error\` varchar(300) NULL,
                \`duration_ms\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_sefaz_dfe_log_filial\` (\`company_id\`, \`filial_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sefaz_dfe_state\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`ult_nsu\` varchar(15) NOT NULL DEFAULT '000000000000000',
                \`max_nsu\` varchar(15) NOT NULL DEFAULT '000000000000000',
                \`last_cstat\` varchar(3) NULL,
                \`last_xmotivo\` varchar(255) NULL,
                \`last_sync_at\` datetime(3) NULL,
                \`next_allowed_at\` datetime(3) NULL,
                \`pending_gaps\` longtext NULL,
                \`lease_until\` datetime(3) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_sefaz_dfe_state_filial\` (\`company_id\`, \`filial_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sefaz_certificate\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`subject\` varchar(500) NOT NULL,
                \`issuer\` varchar(500) NOT NULL,
                \`cnpj\` varchar(14) NULL,
                \`serial_number\` varchar(80) NOT NULL,
                \`fingerprint\` varchar(64) NOT NULL,
                \`valid_from\` datetime(3) NOT NULL,
                \`valid_to\` datetime(3) NOT NULL,
                \`sealed\` longblob NOT NULL,
                \`uploaded_by\` varchar(100) NOT NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_sefaz_certificate_filial\` (\`company_id\`, \`filial_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sefaz_endpoint\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`dist_url\` varchar(300) NOT NULL,
                \`event_url\` varchar(300) NOT NULL,
                \`ca_pem\` text NULL,
                \`label\` varchar(60) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_sefaz_endpoint_filial\` (\`company_id\`, \`filial_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`stock_balance\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`average_cost\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_stock_balance\` (\`company_id\`, \`filial_id\`, \`product_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`company\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`name\` varchar(120) NOT NULL,
                \`cnpj\` varchar(14) NOT NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_company_cnpj\` (\`cnpj\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`filial\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`name\` varchar(120) NOT NULL,
                \`cnpj\` varchar(14) NOT NULL,
                \`state_registration\` varchar(20) NULL,
                \`uf\` varchar(2) NOT NULL,
                \`nfe_environment\` varchar(12) NOT NULL DEFAULT 'PRODUCTION',
                \`allow_negative_stock\` tinyint NOT NULL DEFAULT 0,
                \`auto_ciencia\` tinyint NOT NULL DEFAULT 1,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_filial_company_cnpj\` (\`company_id\`, \`cnpj\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`stock_movement\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`direction\` varchar(3) NOT NULL,
                \`reason\` varchar(40) NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_cost\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`balance_after\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`average_cost_after\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`reference_type\` varchar(40) NOT NULL,
                \`reference_id\` int NOT NULL,
                \`reference_line_id\` int NULL,
                \`actor\` varchar(100) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_stock_movement_reference\` (\`company_id\`, \`reference_type\`, \`reference_id\`),
                INDEX \`ix_stock_movement_product\` (\`company_id\`, \`filial_id\`, \`product_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_stock_movement_product\` ON \`stock_movement\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_stock_movement_reference\` ON \`stock_movement\`
        `);
    await queryRunner.query(`
            DROP TABLE \`stock_movement\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_filial_company_cnpj\` ON \`filial\`
        `);
    await queryRunner.query(`
            DROP TABLE \`filial\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_company_cnpj\` ON \`company\`
        `);
    await queryRunner.query(`
            DROP TABLE \`company\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_stock_balance\` ON \`stock_balance\`
        `);
    await queryRunner.query(`
            DROP TABLE \`stock_balance\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_sefaz_endpoint_filial\` ON \`sefaz_endpoint\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sefaz_endpoint\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_sefaz_certificate_filial\` ON \`sefaz_certificate\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sefaz_certificate\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_sefaz_dfe_state_filial\` ON \`sefaz_dfe_state\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sefaz_dfe_state\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sefaz_dfe_log_filial\` ON \`sefaz_dfe_log\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sefaz_dfe_log\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_sales_order_company_code\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_filial_code\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_filial_status\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_filial_customer\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_filial_seller\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_filial_alias\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_filial_created\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_grouped_into\` ON \`sales_order\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sales_order\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_item_order\` ON \`sales_order_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_order_item_product\` ON \`sales_order_item\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sales_order_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_fulfillment_order\` ON \`fulfillment\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fulfillment\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_fulfillment_item_fulfillment\` ON \`fulfillment_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_fulfillment_item_order_item\` ON \`fulfillment_item\`
        `);
    await queryRunner.query(`
            DROP TABLE \`fulfillment_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_sales_return_code\` ON \`sales_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_return_filial\` ON \`sales_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_return_customer\` ON \`sales_return\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sales_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_return_item_return\` ON \`sales_return_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_return_item_order_item\` ON \`sales_return_item\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sales_return_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sale_payment_order\` ON \`sale_payment\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sale_payment\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_quick_sale_configuration_filial\` ON \`quick_sale_configuration\`
        `);
    await queryRunner.query(`
            DROP TABLE \`quick_sale_configuration\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_product_search_token_product\` ON \`product_search_token\`
        `);
    await queryRunner.query(`
            DROP TABLE \`product_search_token\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_nfe_inbound_filial_key\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_filial_issued\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_filial_import\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_filial_issuer\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_filial_issue_date\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_company_key\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_entry_document\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP TABLE \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP TABLE \`product_search_term\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_product_map_entry_supplier_code\` ON \`product_map_entry\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_product_map_entry_product\` ON \`product_map_entry\`
        `);
    await queryRunner.query(`
            DROP TABLE \`product_map_entry\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_filial_due\` ON \`payable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_filial_status_due\` ON \`payable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_document\` ON \`payable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_supplier\` ON \`payable\`
        `);
    await queryRunner.query(`
            DROP TABLE \`payable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_event_inbound\` ON \`nfe_inbound_event\`
        `);
    await queryRunner.query(`
            DROP TABLE \`nfe_inbound_event\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_webhook_subscription_company\` ON \`webhook_subscription\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_webhook_subscription_active\` ON \`webhook_subscription\`
        `);
    await queryRunner.query(`
            DROP TABLE \`webhook_subscription\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_webhook_delivery\` ON \`webhook_delivery\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_webhook_delivery_due\` ON \`webhook_delivery\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_webhook_delivery_company\` ON \`webhook_delivery\`
        `);
    await queryRunner.query(`
            DROP TABLE \`webhook_delivery\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_entry_document_access_key\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_filial_entry\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_filial_status\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_supplier_document\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_number\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_supplier\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            DROP TABLE \`entry_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_item_document\` ON \`entry_document_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_item_product\` ON \`entry_document_item\`
        `);
    await queryRunner.query(`
            DROP TABLE \`entry_document_item\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_installment_document\` ON \`entry_document_installment\`
        `);
    await queryRunner.query(`
            DROP TABLE \`entry_document_installment\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_supplier_company_document\` ON \`supplier\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_supplier_company_name\` ON \`supplier\`
        `);
    await queryRunner.query(`
            DROP TABLE \`supplier\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_seller_company_name\` ON \`seller\`
        `);
    await queryRunner.query(`
            DROP TABLE \`seller\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_product_company_code\` ON \`product\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_product_company_gtin\` ON \`product\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_product_company_search\` ON \`product\`
        `);
    await queryRunner.query(`
            DROP TABLE \`product\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_payment_method_company_code\` ON \`payment_method\`
        `);
    await queryRunner.query(`
            DROP TABLE \`payment_method\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sequence\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_customer_company_name\` ON \`customer\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_customer_company_trade\` ON \`customer\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_customer_company_document\` ON \`customer\`
        `);
    await queryRunner.query(`
            DROP TABLE \`customer\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_outbox_company\` ON \`outbox_event\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_outbox_company_type\` ON \`outbox_event\`
        `);
    await queryRunner.query(`
            DROP TABLE \`outbox_event\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_idempotency_key\` ON \`idempotency_key\`
        `);
    await queryRunner.query(`
            DROP TABLE \`idempotency_key\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_audit_entity\` ON \`audit_log\`
        `);
    await queryRunner.query(`
            DROP TABLE \`audit_log\`
        `);
  }
}
