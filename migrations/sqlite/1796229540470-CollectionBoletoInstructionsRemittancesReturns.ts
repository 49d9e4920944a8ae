import { MigrationInterface, QueryRunner } from 'typeorm';

export class CollectionBoletoInstructionsRemittancesReturns1796229540470 implements MigrationInterface {
  name = 'CollectionBoletoInstructionsRemittancesReturns1796229540470';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "bank_return" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "file_number" integer,
                "content_sha256" varchar(64) NOT NULL,
                "occurrence_count" integer NOT NULL,
                "summary" text NOT NULL,
                "created_by" varchar(100) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_bank_return_account" ON "bank_return" ("company_id", "bank_account_id", "id")
        `);
    await queryRunner.query(`
            CREATE TABLE "bank_return_occurrence" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "bank_return_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "occurrence_key" varchar(100) NOT NULL,
                "nosso_numero" varchar(20) NOT NULL,
                "occurrence_code" varchar(2) NOT NULL,
                "occurrence_date" date NOT NULL,
                "paid_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "boleto_id" integer,
                "receipt_id" integer,
                "outcome" varchar(10) NOT NULL,
                "reason" varchar(255),
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_bank_return_occurrence_boleto" ON "bank_return_occurrence" ("company_id", "boleto_id", "id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_bank_return_occurrence_key" ON "bank_return_occurrence" ("company_id", "occurrence_key")
        `);
    await queryRunner.query(`
            CREATE TABLE "boleto_instruction" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "boleto_id" integer NOT NULL,
                "kind" varchar(16) NOT NULL,
                "new_due_date" date,
                "new_amount" varchar(17) DEFAULT ('0.00'),
                "remittance_id" integer,
                "created_by" varchar(100) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_boleto_instruction_boleto" ON "boleto_instruction" ("company_id", "boleto_id", "id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_boleto_instruction_pending" ON "boleto_instruction" (
                "company_id",
                "bank_account_id",
                "remittance_id",
                "id"
            )
        `);
    await queryRunner.query(`
            CREATE TABLE "remittance" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "bank_account_id" integer NOT NULL,
                "file_number" integer NOT NULL,
                "layout" varchar(8) NOT NULL,
                "file_name" varchar(40) NOT NULL,
                "content" text NOT NULL,
                "record_count" integer NOT NULL,
                "instruction_count" integer NOT NULL,
                "total_amount" varchar(17) NOT NULL DEFAULT ('0.00'),
                "created_by" varchar(100) NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "ux_remittance_number" ON "remittance" ("company_id", "bank_account_id", "file_number")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ux_remittance_number"
        `);
    await queryRunner.query(`
            DROP TABLE "remittance"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_boleto_instruction_pending"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_boleto_instruction_boleto"
        `);
    await queryRunner.query(`
            DROP TABLE "boleto_instruction"
        `);
    await queryRunner.query(`
            DROP INDEX "ux_bank_return_occurrence_key"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_bank_return_occurrence_boleto"
        `);
    await queryRunner.query(`
            DROP TABLE "bank_return_occurrence"
        `);
    await queryRunner.query(`
            DROP INDEX "ix_bank_return_account"
        `);
    await queryRunner.query(`
            DROP TABLE "bank_return"
        `);
  }
}
