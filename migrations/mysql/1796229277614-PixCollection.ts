import { MigrationInterface, QueryRunner } from 'typeorm';

export class PixCollection1796229277614 implements MigrationInterface {
  name = 'PixCollection1796229277614';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`pix_payment\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`end_to_end_id\` varchar(32) NOT NULL,
                \`txid\` varchar(35) NULL,
                \`charge_id\` int NULL,
                \`receivable_id\` int NULL,
                \`receipt_id\` int NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`original_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`interest\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`fine\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`refunded_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`paid_at\` datetime(3) NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`review_reason\` varchar(40) NULL,
                \`payer_info\` varchar(140) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_pix_payment_filial_status\` (\`company_id\`, \`filial_id\`, \`status\`, \`id\`),
                INDEX \`ix_pix_payment_charge\` (\`company_id\`, \`charge_id\`, \`id\`),
                UNIQUE INDEX \`ux_pix_payment_e2e\` (\`company_id\`, \`end_to_end_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`pix_charge\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`receivable_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`kind\` varchar(10) NOT NULL,
                \`txid\` varchar(35) NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`pix_key\` varchar(77) NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`due_date\` date NULL,
                \`validity\` int NOT NULL,
                \`fine_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`interest_per_day_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`discount_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount_date\` date NULL,
                \`location\` varchar(255) NULL,
                \`br_code\` varchar(512) NULL,
                \`refusal_reason\` varchar(500) NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_pix_charge_receivable\` (\`company_id\`, \`receivable_id\`, \`id\`),
                UNIQUE INDEX \`ux_pix_charge_txid\` (\`company_id\`, \`txid\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`pix_psp_connection\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`base_url\` varchar(255) NOT NULL,
                \`token_url\` varchar(255) NULL,
                \`client_id\` varchar(255) NOT NULL,
                \`client_secret_sealed\` varchar(1024) NOT NULL,
                \`payment_method_code\` varchar(30) NOT NULL,
                \`webhook_secret_hash\` varchar(64) NOT NULL,
                \`webhook_url\` varchar(255) NULL,
                \`webhook_registered_at\` datetime(3) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`ux_pix_psp_connection_account\` (\`company_id\`, \`bank_account_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`pix_refund\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`payment_id\` int NOT NULL,
                \`refund_id\` varchar(35) NOT NULL,
                \`rtr_id\` varchar(32) NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`status\` varchar(10) NOT NULL,
                \`reason\` varchar(140) NOT NULL,
                \`failure_reason\` varchar(255) NULL,
                \`returned_at\` datetime(3) NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_pix_refund_payment\` (\`company_id\`, \`payment_id\`, \`id\`),
                UNIQUE INDEX \`ux_pix_refund_id\` (\`company_id\`, \`refund_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ux_pix_refund_id\` ON \`pix_refund\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_pix_refund_payment\` ON \`pix_refund\`
        `);
    await queryRunner.query(`
            DROP TABLE \`pix_refund\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_pix_psp_connection_account\` ON \`pix_psp_connection\`
        `);
    await queryRunner.query(`
            DROP TABLE \`pix_psp_connection\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_pix_charge_txid\` ON \`pix_charge\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_pix_charge_receivable\` ON \`pix_charge\`
        `);
    await queryRunner.query(`
            DROP TABLE \`pix_charge\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_pix_payment_e2e\` ON \`pix_payment\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_pix_payment_charge\` ON \`pix_payment\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_pix_payment_filial_status\` ON \`pix_payment\`
        `);
    await queryRunner.query(`
            DROP TABLE \`pix_payment\`
        `);
  }
}
