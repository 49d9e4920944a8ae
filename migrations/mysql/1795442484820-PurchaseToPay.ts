import { MigrationInterface, QueryRunner } from 'typeorm';

export class PurchaseToPay1795442484820 implements MigrationInterface {
  name = 'PurchaseToPay1795442484820';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_entry_document_access_key\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            CREATE TABLE \`payable_payment\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`payable_id\` int NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`payment_date\` date NOT NULL,
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
                INDEX \`ix_payable_payment_filial_date\` (\`company_id\`, \`filial_id\`, \`payment_date\`, \`id\`),
                INDEX \`ix_payable_payment_payable\` (\`company_id\`, \`payable_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\`
            ADD \`live_access_key\` varchar(44) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`company\`
            ADD \`version\` int NOT NULL DEFAULT '1'
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`version\` int NOT NULL DEFAULT '1'
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_entry_document_access_key\` ON \`entry_document\` (\`company_id\`, \`access_key\`)
        `);
    // Documents not cancelled keep their key live (data only: the schema is the generated one).
    await queryRunner.query(`
            UPDATE \`entry_document\` SET \`live_access_key\` = \`access_key\` WHERE \`status\` <> 'CANCELLED'
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_entry_document_live_access_key\` ON \`entry_document\` (\`company_id\`, \`live_access_key\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_entry_document_live_access_key\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_entry_document_access_key\` ON \`entry_document\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`version\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`company\` DROP COLUMN \`version\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`entry_document\` DROP COLUMN \`live_access_key\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_payment_payable\` ON \`payable_payment\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_payable_payment_filial_date\` ON \`payable_payment\`
        `);
    await queryRunner.query(`
            DROP TABLE \`payable_payment\`
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_entry_document_access_key\` ON \`entry_document\` (\`company_id\`, \`access_key\`)
        `);
  }
}
