import { MigrationInterface, QueryRunner } from 'typeorm';

export class CertificateTrustAndExpiry1796174576740 implements MigrationInterface {
  name = 'CertificateTrustAndExpiry1796174576740';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_certificate_filial"
        `);
    await queryRunner.query(`
            CREATE TABLE "temporary_sefaz_certificate" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "subject" varchar(500) NOT NULL,
                "issuer" varchar(500) NOT NULL,
                "cnpj" varchar(14),
                "serial_number" varchar(80) NOT NULL,
                "fingerprint" varchar(64) NOT NULL,
                "valid_from" datetime NOT NULL,
                "valid_to" datetime NOT NULL,
                "sealed" blob NOT NULL,
                "uploaded_by" varchar(100) NOT NULL,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now')),
                "trust" varchar(12),
                "trust_warning" varchar(300),
                "expiry_alerted_days" integer
            )
        `);
    await queryRunner.query(`
            INSERT INTO "temporary_sefaz_certificate"(
                    "id",
                    "company_id",
                    "filial_id",
                    "subject",
                    "issuer",
                    "cnpj",
                    "serial_number",
                    "fingerprint",
                    "valid_from",
                    "valid_to",
                    "sealed",
                    "uploaded_by",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "subject",
                "issuer",
                "cnpj",
                "serial_number",
                "fingerprint",
                "valid_from",
                "valid_to",
                "sealed",
                "uploaded_by",
                "version",
                "created_at",
                "updated_at"
            FROM "sefaz_certificate"
        `);
    await queryRunner.query(`
            DROP TABLE "sefaz_certificate"
        `);
    await queryRunner.query(`
            ALTER TABLE "temporary_sefaz_certificate"
                RENAME TO "sefaz_certificate"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_certificate_filial" ON "sefaz_certificate" ("company_id", "filial_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "uq_sefaz_certificate_filial"
        `);
    await queryRunner.query(`
            ALTER TABLE "sefaz_certificate"
                RENAME TO "temporary_sefaz_certificate"
        `);
    await queryRunner.query(`
            CREATE TABLE "sefaz_certificate" (
                "id" integer PRIMARY KEY AUTOINCREMENT NOT NULL,
                "company_id" integer NOT NULL,
                "filial_id" integer NOT NULL,
                "subject" varchar(500) NOT NULL,
                "issuer" varchar(500) NOT NULL,
                "cnpj" varchar(14),
                "serial_number" varchar(80) NOT NULL,
                "fingerprint" varchar(64) NOT NULL,
                "valid_from" datetime NOT NULL,
                "valid_to" datetime NOT NULL,
                "sealed" blob NOT NULL,
                "uploaded_by" varchar(100) NOT NULL,
                "version" integer NOT NULL DEFAULT (1),
                "created_at" datetime NOT NULL DEFAULT (datetime('now')),
                "updated_at" datetime NOT NULL DEFAULT (datetime('now'))
            )
        `);
    await queryRunner.query(`
            INSERT INTO "sefaz_certificate"(
                    "id",
                    "company_id",
                    "filial_id",
                    "subject",
                    "issuer",
                    "cnpj",
                    "serial_number",
                    "fingerprint",
                    "valid_from",
                    "valid_to",
                    "sealed",
                    "uploaded_by",
                    "version",
                    "created_at",
                    "updated_at"
                )
            SELECT "id",
                "company_id",
                "filial_id",
                "subject",
                "issuer",
                "cnpj",
                "serial_number",
                "fingerprint",
                "valid_from",
                "valid_to",
                "sealed",
                "uploaded_by",
                "version",
                "created_at",
                "updated_at"
            FROM "temporary_sefaz_certificate"
        `);
    await queryRunner.query(`
            DROP TABLE "temporary_sefaz_certificate"
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_sefaz_certificate_filial" ON "sefaz_certificate" ("company_id", "filial_id")
        `);
  }
}
