import { MigrationInterface, QueryRunner } from "typeorm";

export class Initial1795307848578 implements MigrationInterface {
    name = 'Initial1795307848578'

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
            CREATE TABLE \`sequence\` (
                \`company_id\` int NOT NULL,
                \`name\` varchar(40) NOT NULL,
                \`value\` int NOT NULL DEFAULT '0',
                PRIMARY KEY (\`company_id\`, \`name\`)
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
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`
            DROP INDEX \`uq_filial_company_cnpj\` ON \`filial\`
        `);
        await queryRunner.query(`
            DROP TABLE \`filial\`
        `);
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
            DROP INDEX \`uq_quick_sale_configuration_filial\` ON \`quick_sale_configuration\`
        `);
        await queryRunner.query(`
            DROP TABLE \`quick_sale_configuration\`
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
            DROP TABLE \`sequence\`
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
