import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfceSubstitution1795840901673 implements MigrationInterface {
  name = 'NfceSubstitution1795840901673';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\`
            ADD \`online_number\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\`
            ADD \`original_outcome\` varchar(20) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\`
            ADD \`original_protocol\` varchar(20) NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\`
            ADD \`original_xml_gz\` longblob NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\` DROP COLUMN \`original_xml_gz\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\` DROP COLUMN \`original_protocol\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\` DROP COLUMN \`original_outcome\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`nfce_document\` DROP COLUMN \`online_number\`
        `);
  }
}
