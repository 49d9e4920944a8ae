import { MigrationInterface, QueryRunner } from 'typeorm';

export class IbptTablePerUf1796234622916 implements MigrationInterface {
  name = 'IbptTablePerUf1796234622916';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_approximate_tax_ncm\` ON \`fiscal_approximate_tax\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_approximate_tax\`
            ADD \`uf\` varchar(2) NOT NULL DEFAULT ''
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_approximate_tax\`
            ADD \`table_key\` varchar(20) NOT NULL DEFAULT ''
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_fiscal_approximate_tax_uf_ncm\` ON \`fiscal_approximate_tax\` (\`company_id\`, \`uf\`, \`ncm\`, \`ex\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_fiscal_approximate_tax_uf_ncm\` ON \`fiscal_approximate_tax\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_approximate_tax\` DROP COLUMN \`table_key\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`fiscal_approximate_tax\` DROP COLUMN \`uf\`
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_fiscal_approximate_tax_ncm\` ON \`fiscal_approximate_tax\` (\`company_id\`, \`ncm\`, \`ex\`)
        `);
  }
}
