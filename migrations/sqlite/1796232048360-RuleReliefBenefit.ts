import { MigrationInterface, QueryRunner } from 'typeorm';

export class RuleReliefBenefit1796232048360 implements MigrationInterface {
  name = 'RuleReliefBenefit1796232048360';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_operation_rule_key"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_fiscal_operation_rule" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "tax_group_id" integer NOT NULL,
                "operation" varchar(10) NOT NULL,
                "destination" varchar(12) NOT NULL,
                "contributor" boolean NOT NULL,
                "valid_from" date NOT NULL,
                "valid_to" date,
                "cfop" varchar(4) NOT NULL,
                "operation_nature" varchar(60),
                "icms_cst" varchar(2),
                "csosn" varchar(3),
                "icms_base_reduction" varchar(9),
                "icms_rate" varchar(9),
                "st_mode" varchar(14) NOT NULL DEFAULT ('NONE'),
                "st_mva" varchar(9),
                "st_base_reduction" varchar(9),
                "pis_cst" varchar(2),
                "pis_rate" varchar(9),
                "cofins_cst" varchar(2),
                "cofins_rate" varchar(9),
                "ipi_cst" varchar(2),
                "ipi_rate" varchar(9),
                "ipi_enquadramento" varchar(3),
                "ibs_cbs_cst" varchar(3),
                "ibs_cbs_class" varchar(6),
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "benefit_code" varchar(10),
                "relief_reason" integer,
                "relief_deducted" boolean NOT NULL DEFAULT (0)
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_fiscal_operation_rule"(
                    "id",
                    "company_id",
                    "tax_group_id",
                    "operation",
                    "destination",
                    "contributor",
                    "valid_from",
                    "valid_to",
                    "cfop",
                    "operation_nature",
                    "icms_cst",
                    "csosn",
                    "icms_base_reduction",
                    "icms_rate",
                    "st_mode",
                    "st_mva",
                    "st_base_reduction",
                    "pis_cst",
                    "pis_rate",
                    "cofins_cst",
                    "cofins_rate",
                    "ipi_cst",
                    "ipi_rate",
                    "ipi_enquadramento",
                    "ibs_cbs_cst",
                    "ibs_cbs_class",
                    "active",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "tax_group_id",
                "operation",
                "destination",
                "contributor",
                "valid_from",
                "valid_to",
                "cfop",
                "operation_nature",
                "icms_cst",
                "csosn",
                "icms_base_reduction",
                "icms_rate",
                "st_mode",
                "st_mva",
                "st_base_reduction",
                "pis_cst",
                "pis_rate",
                "cofins_cst",
                "cofins_rate",
                "ipi_cst",
                "ipi_rate",
                "ipi_enquadramento",
                "ibs_cbs_cst",
                "ibs_cbs_class",
                "active",
                "version",
                "created_at",
                "updated_at"
            FROM "fiscal_operation_rule"
        `);
    await queryRunner.query(`
            DROP TABLE "fiscal_operation_rule"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_fiscal_operation_rule"
                RENAME TO "fiscal_operation_rule"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_operation_rule_key" ON "fiscal_operation_rule" (
                "company_id",
                "tax_group_id",
                "operation",
                "destination",
                "contributor",
                "valid_from"
            )
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_fiscal_operation_rule_key"
        `);
    await queryRunner.query(`
            ALTER TABLE "fiscal_operation_rule"
                RENAME TO "temporary_fiscal_operation_rule"
        `);
    await queryRunner.query(`
            CREATE TABLE "fiscal_operation_rule" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "tax_group_id" integer NOT NULL,
                "operation" varchar(10) NOT NULL,
                "destination" varchar(12) NOT NULL,
                "contributor" boolean NOT NULL,
                "valid_from" date NOT NULL,
                "valid_to" date,
                "cfop" varchar(4) NOT NULL,
                "operation_nature" varchar(60),
                "icms_cst" varchar(2),
                "csosn" varchar(3),
                "icms_base_reduction" varchar(9),
                "icms_rate" varchar(9),
                "st_mode" varchar(14) NOT NULL DEFAULT ('NONE'),
                "st_mva" varchar(9),
                "st_base_reduction" varchar(9),
                "pis_cst" varchar(2),
                "pis_rate" varchar(9),
                "cofins_cst" varchar(2),
                "cofins_rate" varchar(9),
                "ipi_cst" varchar(2),
                "ipi_rate" varchar(9),
                "ipi_enquadramento" varchar(3),
                "ibs_cbs_cst" varchar(3),
                "ibs_cbs_class" varchar(6),
                "active" boolean NOT NULL DEFAULT (1),
                "version" integer NOT NULL,
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "fiscal_operation_rule"(
                    "id",
                    "company_id",
                    "tax_group_id",
                    "operation",
                    "destination",
                    "contributor",
                    "valid_from",
                    "valid_to",
                    "cfop",
                    "operation_nature",
                    "icms_cst",
                    "csosn",
                    "icms_base_reduction",
                    "icms_rate",
                    "st_mode",
                    "st_mva",
                    "st_base_reduction",
                    "pis_cst",
                    "pis_rate",
                    "cofins_cst",
                    "cofins_rate",
                    "ipi_cst",
                    "ipi_rate",
                    "ipi_enquadramento",
                    "ibs_cbs_cst",
                    "ibs_cbs_class",
                    "active",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "tax_group_id",
                "operation",
                "destination",
                "contributor",
                "valid_from",
                "valid_to",
                "cfop",
                "operation_nature",
                "icms_cst",
                "csosn",
                "icms_base_reduction",
                "icms_rate",
                "st_mode",
                "st_mva",
                "st_base_reduction",
                "pis_cst",
                "pis_rate",
                "cofins_cst",
                "cofins_rate",
                "ipi_cst",
                "ipi_rate",
                "ipi_enquadramento",
                "ibs_cbs_cst",
                "ibs_cbs_class",
                "active",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_fiscal_operation_rule"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_fiscal_operation_rule"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_fiscal_operation_rule_key" ON "fiscal_operation_rule" (
                "company_id",
                "tax_group_id",
                "operation",
                "destination",
                "contributor",
                "valid_from"
            )
        `);
  }
}
