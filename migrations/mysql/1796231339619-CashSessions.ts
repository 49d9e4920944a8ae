import { MigrationInterface, QueryRunner } from 'typeorm';

export class CashSessions1796231339619 implements MigrationInterface {
  name = 'CashSessions1796231339619';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`cash_session\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`terminal_id\` varchar(20) NOT NULL,
                \`open_terminal\` varchar(20) NULL,
                \`operator_id\` varchar(64) NOT NULL,
                \`status\` varchar(20) NOT NULL,
                \`opening_float\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`previous_session_id\` int NULL,
                \`previous_closing_cash\` decimal(15, 2) NULL,
                \`opening_difference\` decimal(15, 2) NULL,
                \`opened_at\` datetime(3) NOT NULL,
                \`opened_by\` varchar(64) NOT NULL,
                \`closed_at\` datetime(3) NULL,
                \`closed_by\` varchar(64) NULL,
                \`closing\` longtext NULL,
                \`expected_cash\` decimal(15, 2) NULL,
                \`counted_cash\` decimal(15, 2) NULL,
                \`closing_difference\` decimal(15, 2) NULL,
                \`with_difference\` tinyint NOT NULL DEFAULT 0,
                \`difference_limit\` decimal(15, 2) NULL,
                \`approved_at\` datetime(3) NULL,
                \`approved_by\` varchar(64) NULL,
                \`approval_note\` varchar(255) NULL,
                \`reopen_count\` int NOT NULL DEFAULT '0',
                \`reopened_at\` datetime(3) NULL,
                \`reopen_reason\` varchar(255) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_cash_session_difference\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`with_difference\`,
                    \`id\`
                ),
                INDEX \`ix_cash_session_status\` (\`status\`),
                INDEX \`ix_cash_session_filial_opened\` (\`company_id\`, \`filial_id\`, \`opened_at\`),
                INDEX \`ix_cash_session_terminal\` (\`company_id\`, \`filial_id\`, \`terminal_id\`, \`id\`),
                UNIQUE INDEX \`uq_cash_session_open_terminal\` (\`company_id\`, \`filial_id\`, \`open_terminal\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`cash_movement\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`cash_session_id\` int NOT NULL,
                \`type\` varchar(20) NOT NULL,
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`reason\` varchar(255) NOT NULL,
                \`created_by\` varchar(64) NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_cash_movement_session\` (\`company_id\`, \`cash_session_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`quick_sale_configuration\`
            ADD \`require_cash_session\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`quick_sale_configuration\`
            ADD \`cash_difference_limit\` decimal(15, 2) NOT NULL DEFAULT '0.00'
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`cash_session_id\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`tp_integra\` varchar(1) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`institution_cnpj\` varchar(14) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`card_brand\` varchar(2) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`authorization_code\` varchar(128) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`nsu\` varchar(40) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`end_to_end_id\` varchar(32) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`pix_static\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`payer_cnpj\` varchar(14) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\`
            ADD \`payer_uf\` varchar(2) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
            ADD \`nsu\` varchar(40) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
            ADD \`authorization_code\` varchar(128) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
            ADD \`card_brand\` varchar(2) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\`
            ADD \`acquirer_cnpj\` varchar(14) NULL
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_sale_payment_session\` ON \`sale_payment\` (\`company_id\`, \`cash_session_id\`)
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_receivable_nsu\` ON \`receivable\` (\`company_id\`, \`nsu\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_receivable_nsu\` ON \`receivable\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sale_payment_session\` ON \`sale_payment\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\` DROP COLUMN \`acquirer_cnpj\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\` DROP COLUMN \`card_brand\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\` DROP COLUMN \`authorization_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`receivable\` DROP COLUMN \`nsu\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`payer_uf\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`payer_cnpj\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`pix_static\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`end_to_end_id\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`nsu\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`authorization_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`card_brand\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`institution_cnpj\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`tp_integra\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sale_payment\` DROP COLUMN \`cash_session_id\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`quick_sale_configuration\` DROP COLUMN \`cash_difference_limit\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`quick_sale_configuration\` DROP COLUMN \`require_cash_session\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cash_movement_session\` ON \`cash_movement\`
        `);
    await queryRunner.query(`
            DROP TABLE \`cash_movement\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_cash_session_open_terminal\` ON \`cash_session\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cash_session_terminal\` ON \`cash_session\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cash_session_filial_opened\` ON \`cash_session\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cash_session_status\` ON \`cash_session\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_cash_session_difference\` ON \`cash_session\`
        `);
    await queryRunner.query(`
            DROP TABLE \`cash_session\`
        `);
  }
}
