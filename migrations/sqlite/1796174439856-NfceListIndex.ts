import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfceListIndex1796174439856 implements MigrationInterface {
  name = 'NfceListIndex1796174439856';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_nfce_document_filial_issued" ON "nfce_document" ("company_id", "filial_id", "issued_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_nfce_document_filial_issued"
        `);
  }
}
