import { MigrationInterface, QueryRunner } from 'typeorm';

export class ReturnOriginStatusAndRequestKey1796173838506 implements MigrationInterface {
  name = 'ReturnOriginStatusAndRequestKey1796173838506';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`sales_return\`
            ADD \`origin_status\` varchar(10) NOT NULL DEFAULT 'RESOLVED'
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return\`
            ADD \`request_key\` varchar(255) NULL
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_sales_return_origin_status\` ON \`sales_return\` (\`origin_status\`, \`id\`)
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_sales_return_request_key\` ON \`sales_return\` (\`company_id\`, \`request_key\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_sales_return_request_key\` ON \`sales_return\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_return_origin_status\` ON \`sales_return\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return\` DROP COLUMN \`request_key\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return\` DROP COLUMN \`origin_status\`
        `);
  }
}
