import { MigrationInterface, QueryRunner } from 'typeorm';

/* bank_account.carteira_variation (Banco do Brasil CNAB 400) and bank_account.transmission_code (Santander CNAB 400): nullable, additive. */

export class BankAccountLayoutCodes1796292051236 implements MigrationInterface {
  name = 'BankAccountLayoutCodes1796292051236';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`bank_account\`
            ADD \`carteira_variation\` varchar(3) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`bank_account\`
            ADD \`transmission_code\` varchar(20) NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`bank_account\` DROP COLUMN \`transmission_code\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`bank_account\` DROP COLUMN \`carteira_variation\`
        `);
  }
}
