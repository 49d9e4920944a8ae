import { MigrationInterface, QueryRunner } from 'typeorm';

/*
 * bank_account.carteira_variation (Banco do Brasil's variação da carteira, its CNAB 400 92–94) and
 * bank_account.transmission_code (Santander's código de transmissão for its CNAB 400). Plain ADD
 * COLUMNs rather than the generator's copy of the table: both are additive and nullable.
 */
export class BankAccountLayoutCodes1796292051236 implements MigrationInterface {
  name = 'BankAccountLayoutCodes1796292051236';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "bank_account" ADD COLUMN "carteira_variation" varchar(3)
        `);
    await queryRunner.query(`
            ALTER TABLE "bank_account" ADD COLUMN "transmission_code" varchar(20)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "bank_account" DROP COLUMN "transmission_code"
        `);
    await queryRunner.query(`
            ALTER TABLE "bank_account" DROP COLUMN "carteira_variation"
        `);
  }
}
