import { MigrationInterface, QueryRunner } from 'typeorm';

export class StockTransfers1795843983373 implements MigrationInterface {
  name = 'StockTransfers1795843983373';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`stock_transfer_item\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`transfer_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`quantity\` decimal(18, 4) NOT NULL DEFAULT '0.0000',
                \`unit_cost\` decimal(21, 10) NOT NULL DEFAULT '0.0000000000',
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                INDEX \`ix_stock_transfer_item_transfer\` (\`company_id\`, \`transfer_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`stock_transfer\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`from_filial_id\` int NOT NULL,
                \`to_filial_id\` int NOT NULL,
                \`status\` varchar(12) NOT NULL,
                \`total\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`notes\` varchar(500) NULL,
                \`created_by\` varchar(100) NOT NULL,
                \`authorized_at\` datetime(3) NULL,
                \`cancelled_at\` datetime(3) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_stock_transfer_to\` (\`company_id\`, \`to_filial_id\`),
                INDEX \`ix_stock_transfer_from\` (\`company_id\`, \`from_filial_id\`, \`status\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_stock_transfer_from\` ON \`stock_transfer\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_stock_transfer_to\` ON \`stock_transfer\`
        `);
    await queryRunner.query(`
            DROP TABLE \`stock_transfer\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_stock_transfer_item_transfer\` ON \`stock_transfer_item\`
        `);
    await queryRunner.query(`
            DROP TABLE \`stock_transfer_item\`
        `);
  }
}
