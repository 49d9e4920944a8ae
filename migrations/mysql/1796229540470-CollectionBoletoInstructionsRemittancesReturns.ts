import { MigrationInterface, QueryRunner } from 'typeorm';

export class CollectionBoletoInstructionsRemittancesReturns1796229540470 implements MigrationInterface {
  name = 'CollectionBoletoInstructionsRemittancesReturns1796229540470';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`bank_return\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`file_number\` int NULL,
                \`content_sha256\` varchar(64) NOT NULL,
                \`occurrence_count\` int NOT NULL,
                \`summary\` longtext NOT NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_bank_return_account\` (\`company_id\`, \`bank_account_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`bank_return_occurrence\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`bank_return_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`occurrence_key\` varchar(100) NOT NULL,
                \`nosso_numero\` varchar(20) NOT NULL,
                \`occurrence_code\` varchar(2) NOT NULL,
                \`occurrence_date\` date NOT NULL,
                \`paid_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`boleto_id\` int NULL,
                \`receipt_id\` int NULL,
                \`outcome\` varchar(10) NOT NULL,
                \`reason\` varchar(255) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_bank_return_occurrence_boleto\` (\`company_id\`, \`boleto_id\`, \`id\`),
                UNIQUE INDEX \`ux_bank_return_occurrence_key\` (\`company_id\`, \`occurrence_key\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`boleto_instruction\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`boleto_id\` int NOT NULL,
                \`kind\` varchar(16) NOT NULL,
                \`new_due_date\` date NULL,
                \`new_amount\` decimal(15, 2) NULL DEFAULT '0.00',
                \`remittance_id\` int NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_boleto_instruction_boleto\` (\`company_id\`, \`boleto_id\`, \`id\`),
                INDEX \`ix_boleto_instruction_pending\` (
                    \`company_id\`,
                    \`bank_account_id\`,
                    \`remittance_id\`,
                    \`id\`
                ),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`remittance\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`bank_account_id\` int NOT NULL,
                \`file_number\` int NOT NULL,
                \`layout\` varchar(8) NOT NULL,
                \`file_name\` varchar(40) NOT NULL,
                \`content\` text NOT NULL,
                \`record_count\` int NOT NULL,
                \`instruction_count\` int NOT NULL,
                \`total_amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`created_by\` varchar(100) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`ux_remittance_number\` (\`company_id\`, \`bank_account_id\`, \`file_number\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ux_remittance_number\` ON \`remittance\`
        `);
    await queryRunner.query(`
            DROP TABLE \`remittance\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_boleto_instruction_pending\` ON \`boleto_instruction\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_boleto_instruction_boleto\` ON \`boleto_instruction\`
        `);
    await queryRunner.query(`
            DROP TABLE \`boleto_instruction\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_bank_return_occurrence_key\` ON \`bank_return_occurrence\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_bank_return_occurrence_boleto\` ON \`bank_return_occurrence\`
        `);
    await queryRunner.query(`
            DROP TABLE \`bank_return_occurrence\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_bank_return_account\` ON \`bank_return\`
        `);
    await queryRunner.query(`
            DROP TABLE \`bank_return\`
        `);
  }
}
