import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundInvoices1795820866177 implements MigrationInterface {
  name = 'OutboundInvoices1795820866177';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`invoice_contingency\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`mode\` varchar(6) NOT NULL,
                \`reason\` varchar(256) NOT NULL,
                \`since\` datetime(3) NOT NULL,
                \`checked_at\` datetime(3) NOT NULL,
                \`ended_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_invoice_contingency_filial\` (\`company_id\`, \`filial_id\`, \`ended_at\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`invoice_number_void\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`series_id\` int NOT NULL,
                \`model\` int NOT NULL,
                \`series\` int NOT NULL,
                \`first_number\` int NOT NULL,
                \`last_number\` int NOT NULL,
                \`justification\` varchar(255) NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`c_stat\` varchar(3) NULL,
                \`x_motivo\` varchar(255) NULL,
                \`protocol\` varchar(20) NULL,
                \`voided_at\` datetime(3) NULL,
                \`xml_gz\` longblob NULL,
                \`actor\` varchar(100) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_invoice_number_void_series\` (\`company_id\`, \`series_id\`, \`first_number\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`invoice_series\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`model\` int NOT NULL,
                \`series\` int NOT NULL,
                \`next_number\` int NOT NULL,
                \`is_default\` tinyint NOT NULL DEFAULT 0,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_invoice_series\` (\`company_id\`, \`filial_id\`, \`model\`, \`series\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`outbound_nfe_event\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`outbound_nfe_id\` int NOT NULL,
                \`type\` varchar(6) NOT NULL,
                \`sequence\` int NOT NULL,
                \`text\` varchar(1000) NOT NULL,
                \`c_stat\` varchar(3) NOT NULL,
                \`x_motivo\` varchar(255) NOT NULL,
                \`protocol\` varchar(20) NOT NULL,
                \`registered_at\` datetime(3) NOT NULL,
                \`xml_gz\` longblob NOT NULL,
                \`actor\` varchar(100) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_outbound_nfe_event\` (
                    \`company_id\`,
                    \`outbound_nfe_id\`,
                    \`type\`,
                    \`sequence\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`outbound_nfe\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`series_id\` int NOT NULL,
                \`model\` int NOT NULL,
                \`series\` int NOT NULL,
                \`number\` int NOT NULL,
                \`access_key\` varchar(44) NOT NULL,
                \`source\` varchar(12) NOT NULL,
                \`fulfillment_id\` int NULL,
                \`sales_order_id\` int NOT NULL,
                \`customer_id\` int NULL,
                \`claim\` varchar(24) NULL,
                \`status\` varchar(12) NOT NULL,
                \`emission_type\` int NOT NULL DEFAULT '1',
                \`contingency_reason\` varchar(256) NULL,
                \`issued_at_text\` varchar(25) NOT NULL,
                \`issued_at\` datetime(3) NOT NULL,
                \`random_code\` varchar(8) NOT NULL,
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`summary\` longtext NOT NULL,
                \`signed_xml_gz\` longblob NOT NULL,
                \`proc_xml_gz\` longblob NULL,
                \`c_stat\` varchar(3) NULL,
                \`x_motivo\` varchar(255) NULL,
                \`protocol\` varchar(20) NULL,
                \`authorized_at\` datetime(3) NULL,
                \`send_attempts\` int NOT NULL DEFAULT '0',
                \`last_sent_at\` datetime(3) NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`cancel_protocol\` varchar(20) NULL,
                \`correction_sequence\` int NOT NULL DEFAULT '0',
                \`email_status\` varchar(10) NOT NULL DEFAULT 'NONE',
                \`email_to\` varchar(150) NULL,
                \`email_attempts\` int NOT NULL DEFAULT '0',
                \`email_sent_at\` datetime(3) NULL,
                \`email_error\` varchar(300) NULL,
                \`actor\` varchar(100) NULL,
                \`request_key\` varchar(255) NULL,
                \`lease_owner\` varchar(80) NULL,
                \`lease_until\` datetime(3) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_outbound_nfe_filial\` (\`company_id\`, \`filial_id\`, \`id\`),
                INDEX \`ix_outbound_nfe_status\` (\`company_id\`, \`status\`, \`updated_at\`),
                UNIQUE INDEX \`uq_outbound_nfe_claim\` (\`company_id\`, \`claim\`),
                UNIQUE INDEX \`uq_outbound_nfe_key\` (\`company_id\`, \`access_key\`),
                UNIQUE INDEX \`uq_outbound_nfe_number\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`model\`,
                    \`series\`,
                    \`number\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_outbound_nfe_number\` ON \`outbound_nfe\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_outbound_nfe_key\` ON \`outbound_nfe\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_outbound_nfe_claim\` ON \`outbound_nfe\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_outbound_nfe_status\` ON \`outbound_nfe\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_outbound_nfe_filial\` ON \`outbound_nfe\`
        `);
    await queryRunner.query(`
            DROP TABLE \`outbound_nfe\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_outbound_nfe_event\` ON \`outbound_nfe_event\`
        `);
    await queryRunner.query(`
            DROP TABLE \`outbound_nfe_event\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_invoice_series\` ON \`invoice_series\`
        `);
    await queryRunner.query(`
            DROP TABLE \`invoice_series\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_invoice_number_void_series\` ON \`invoice_number_void\`
        `);
    await queryRunner.query(`
            DROP TABLE \`invoice_number_void\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_invoice_contingency_filial\` ON \`invoice_contingency\`
        `);
    await queryRunner.query(`
            DROP TABLE \`invoice_contingency\`
        `);
  }
}
