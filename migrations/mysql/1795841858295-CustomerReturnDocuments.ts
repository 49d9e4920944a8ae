import { MigrationInterface, QueryRunner } from 'typeorm';

export class CustomerReturnDocuments1795841858295 implements MigrationInterface {
  name = 'CustomerReturnDocuments1795841858295';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`sales_return_tax_credit\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`return_id\` int NOT NULL,
                \`access_key\` varchar(44) NOT NULL,
                \`tax\` varchar(6) NOT NULL,
                \`base\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`amount\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`tax_regime\` varchar(20) NOT NULL,
                \`entry_date\` date NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`reversed_at\` datetime(3) NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                INDEX \`ix_sales_return_tax_credit_filial\` (\`company_id\`, \`filial_id\`, \`entry_date\`),
                INDEX \`ix_sales_return_tax_credit_return\` (\`company_id\`, \`return_id\`, \`tax\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return_item\`
            ADD \`fiscal_origins\` longtext NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return\`
            ADD \`origin\` varchar(10) NOT NULL DEFAULT 'COUNTER'
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return\`
            ADD \`imported_access_key\` varchar(44) NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`uq_sales_return_imported_key\` ON \`sales_return\` (\`company_id\`, \`imported_access_key\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_sales_return_imported_key\` ON \`sales_return\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return\` DROP COLUMN \`imported_access_key\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return\` DROP COLUMN \`origin\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`sales_return_item\` DROP COLUMN \`fiscal_origins\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_return_tax_credit_return\` ON \`sales_return_tax_credit\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sales_return_tax_credit_filial\` ON \`sales_return_tax_credit\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sales_return_tax_credit\`
        `);
  }
}
