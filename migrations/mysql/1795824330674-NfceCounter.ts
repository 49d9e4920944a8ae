import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfceCounter1795824330674 implements MigrationInterface {
  name = 'NfceCounter1795824330674';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`nfce_configuration\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`series\` int NOT NULL,
                \`qr_version\` int NOT NULL,
                \`csc_id\` int NULL,
                \`csc_token\` varchar(36) NULL,
                \`qr_code_url\` varchar(255) NOT NULL,
                \`consult_url\` varchar(255) NOT NULL,
                \`auto_issue\` tinyint NOT NULL DEFAULT 0,
                \`sync_timeout_ms\` int NOT NULL DEFAULT '3000',
                \`identification_threshold\` decimal(15, 2) NULL DEFAULT '0.00',
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_nfce_configuration_filial\` (\`company_id\`, \`filial_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`nfce_document\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`series_id\` int NOT NULL,
                \`series\` int NOT NULL,
                \`number\` int NOT NULL,
                \`access_key\` varchar(44) NOT NULL,
                \`online_key\` varchar(44) NULL,
                \`status\` varchar(20) NOT NULL,
                \`emission_type\` int NOT NULL,
                \`issued_at\` datetime(3) NOT NULL,
                \`random_code\` varchar(8) NOT NULL,
                \`contingency_at\` datetime(3) NULL,
                \`contingency_reason\` varchar(256) NULL,
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`consumer_document\` varchar(14) NULL,
                \`qr_code\` varchar(1000) NOT NULL,
                \`consult_url\` varchar(255) NOT NULL,
                \`tp_amb\` varchar(1) NOT NULL,
                \`summary\` longtext NOT NULL,
                \`signed_xml_gz\` longblob NOT NULL,
                \`online_xml_gz\` longblob NULL,
                \`proc_xml_gz\` longblob NULL,
                \`protocol\` varchar(20) NULL,
                \`authorized_at\` datetime(3) NULL,
                \`c_stat\` varchar(3) NULL,
                \`x_motivo\` varchar(255) NULL,
                \`cancel_protocol\` varchar(20) NULL,
                \`cancel_xml_gz\` longblob NULL,
                \`send_attempts\` int NOT NULL DEFAULT '0',
                \`overdue_alerted\` tinyint NOT NULL DEFAULT 0,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_nfce_document_status\` (\`status\`, \`filial_id\`, \`number\`),
                UNIQUE INDEX \`uq_nfce_document_order\` (\`company_id\`, \`sales_order_id\`),
                UNIQUE INDEX \`uq_nfce_document_number\` (\`company_id\`, \`series_id\`, \`number\`),
                UNIQUE INDEX \`uq_nfce_document_key\` (\`access_key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`nfce_queue_lease\` (
                \`name\` varchar(40) NOT NULL,
                \`owner\` varchar(80) NULL,
                \`lease_until\` datetime(3) NULL,
                PRIMARY KEY (\`name\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP TABLE \`nfce_queue_lease\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_nfce_document_key\` ON \`nfce_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_nfce_document_number\` ON \`nfce_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_nfce_document_order\` ON \`nfce_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfce_document_status\` ON \`nfce_document\`
        `);
    await queryRunner.query(`
            DROP TABLE \`nfce_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_nfce_configuration_filial\` ON \`nfce_configuration\`
        `);
    await queryRunner.query(`
            DROP TABLE \`nfce_configuration\`
        `);
  }
}
