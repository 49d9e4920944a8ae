import { MigrationInterface, QueryRunner } from 'typeorm';

export class Receivables1795820007300 implements MigrationInterface {
  name = 'Receivables1795820007300';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`customer_credit\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`customer_id\` int NOT NULL,
                \`return_id\` int NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`kind\` varchar(10) NOT NULL,
                \`method_code\` varchar(30) NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`actor\` varchar(100) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_customer_credit_return\` (\`company_id\`, \`return_id\`),
                INDEX \`ix_customer_credit_customer\` (\`company_id\`, \`customer_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`receivable_receipt\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`receivable_id\` int NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`receipt_date\` date NOT NULL,
                \`payment_method_id\` int NOT NULL,
                \`payment_method_code\` varchar(30) NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`interest\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`fine\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`discount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`note\` varchar(500) NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`reversed_at\` datetime(3) NULL,
                \`reversed_by\` varchar(100) NULL,
                \`reversal_reason\` varchar(255) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_receivable_receipt_filial_date\` (\`company_id\`, \`filial_id\`, \`receipt_date\`, \`id\`),
                INDEX \`ix_receivable_receipt_receivable\` (\`company_id\`, \`receivable_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`receivable\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`debtor_type\` varchar(10) NOT NULL,
                \`customer_id\` int NULL,
                \`payment_method_id\` int NULL,
                \`payment_method_code\` varchar(30) NULL,
                \`origin_type\` varchar(16) NOT NULL,
                \`sales_order_id\` int NOT NULL,
                \`sales_order_code\` int NOT NULL,
                \`fulfillment_id\` int NOT NULL,
                \`fiscal_document_id\` int NULL,
                \`access_key\` varchar(44) NULL,
                \`installment_number\` int NOT NULL,
                \`installment_count\` int NOT NULL,
                \`issue_date\` date NOT NULL,
                \`due_date\` date NOT NULL,
                \`gross_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`fee_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000',
                \`fee_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`received_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`credited_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`status\` varchar(20) NOT NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`cancel_reason\` varchar(255) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_receivable_customer\` (\`company_id\`, \`customer_id\`, \`due_date\`, \`id\`),
                INDEX \`ix_receivable_order\` (\`company_id\`, \`sales_order_id\`, \`id\`),
                INDEX \`ix_receivable_fulfillment\` (
                    \`company_id\`,
                    \`fulfillment_id\`,
                    \`installment_number\`
                ),
                INDEX \`ix_receivable_filial_status_due\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`status\`,
                    \`due_date\`,
                    \`id\`
                ),
                INDEX \`ix_receivable_filial_due\` (\`company_id\`, \`filial_id\`, \`due_date\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`payment_method\`
            ADD \`settlement\` varchar(10) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`payment_method\`
            ADD \`settlement_days\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`payment_method\`
            ADD \`fee_percent\` decimal(7, 4) NOT NULL DEFAULT '0.0000'
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_order\`
            ADD \`payment_terms\` varchar(120) NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_order\` DROP COLUMN \`payment_terms\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`payment_method\` DROP COLUMN \`fee_percent\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`payment_method\` DROP COLUMN \`settlement_days\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`payment_method\` DROP COLUMN \`settlement\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_filial_due\` ON \`receivable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_filial_status_due\` ON \`receivable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_fulfillment\` ON \`receivable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_order\` ON \`receivable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_customer\` ON \`receivable\`
        `);
    await queryRunner.query(`
            DROP TABLE \`receivable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_receipt_receivable\` ON \`receivable_receipt\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_receipt_filial_date\` ON \`receivable_receipt\`
        `);
    await queryRunner.query(`
            DROP TABLE \`receivable_receipt\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_customer_credit_customer\` ON \`customer_credit\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_customer_credit_return\` ON \`customer_credit\`
        `);
    await queryRunner.query(`
            DROP TABLE \`customer_credit\`
        `);
  }
}
