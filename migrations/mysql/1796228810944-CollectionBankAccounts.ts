import { MigrationInterface, QueryRunner } from 'typeorm';

export class CollectionBankAccounts1796228810944 implements MigrationInterface {
  name = 'CollectionBankAccounts1796228810944';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`bank_account\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`name\` varchar(60) NOT NULL,
                \`bank_code\` varchar(3) NOT NULL,
                \`agency\` varchar(4) NOT NULL,
                \`agency_digit\` varchar(1) NULL,
                \`account\` varchar(12) NOT NULL,
                \`account_digit\` varchar(1) NOT NULL,
                \`carteira\` varchar(3) NOT NULL,
                \`beneficiary_code\` varchar(20) NULL,
                \`layout\` varchar(8) NOT NULL,
                \`payment_method_code\` varchar(30) NOT NULL,
                \`fine_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`interest_per_day_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`discount_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`discount_days\` int NOT NULL DEFAULT '0',
                \`instructions\` varchar(400) NULL,
                \`protest_days\` int NULL,
                \`write_off_days\` int NULL,
                \`pix_key\` varchar(77) NULL,
                \`psp_code\` varchar(30) NULL,
                \`active\` tinyint NOT NULL DEFAULT 1,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_bank_account_filial\` (\`company_id\`, \`filial_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`boleto\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`receivable_id\` int NOT NULL,
                \`bank_code\` varchar(3) NOT NULL,
                \`sequence\` int NOT NULL,
                \`nosso_numero\` varchar(20) NOT NULL,
                \`nosso_numero_dv\` varchar(1) NOT NULL,
                \`nosso_numero_printed\` varchar(30) NOT NULL,
                \`document_number\` varchar(15) NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`issue_date\` date NOT NULL,
                \`due_date\` date NOT NULL,
                \`barcode\` varchar(44) NOT NULL,
                \`digitable_line\` varchar(47) NOT NULL,
                \`fine_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`interest_per_day_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`discount_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount_date\` date NULL,
                \`protest_days\` int NULL,
                \`write_off_days\` int NULL,
                \`status\` varchar(24) NOT NULL,
                \`refusal_reason\` varchar(255) NULL,
                \`review_reason\` varchar(255) NULL,
                \`paid_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`registered_at\` datetime(3) NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_boleto_account_status\` (\`company_id\`, \`bank_account_id\`, \`status\`, \`id\`),
                INDEX \`ix_boleto_receivable\` (\`company_id\`, \`receivable_id\`, \`id\`),
                UNIQUE INDEX \`ux_boleto_nosso_numero\` (\`company_id\`, \`bank_account_id\`, \`nosso_numero\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable_receipt\`
            ADD \`bank_fee\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable_receipt\`
            ADD \`credit_date\` date NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`receivable_receipt\` DROP COLUMN \`credit_date\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable_receipt\` DROP COLUMN \`bank_fee\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_boleto_nosso_numero\` ON \`boleto\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_boleto_receivable\` ON \`boleto\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_boleto_account_status\` ON \`boleto\`
        `);
    await queryRunner.query(`
            DROP TABLE \`boleto\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_bank_account_filial\` ON \`bank_account\`
        `);
    await queryRunner.query(`
            DROP TABLE \`bank_account\`
        `);
  }
}
