import { MigrationInterface, QueryRunner } from 'typeorm';

export class StockCountsAndEfd1796229293984 implements MigrationInterface {
  name = 'StockCountsAndEfd1796229293984';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`inventory_count_line\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`count_id\` int NOT NULL,
                \`line_number\` int NOT NULL,
                \`product_id\` int NOT NULL,
                \`counted_quantity\` decimal(18, 4) NULL,
                \`expected_quantity\` decimal(18, 4) NULL,
                \`counted_by\` varchar(100) NULL,
                \`counted_at\` datetime(3) NULL,
                \`difference\` decimal(18, 4) NULL,
                \`snapshot_quantity\` decimal(18, 4) NULL,
                \`unit_cost\` decimal(21, 10) NULL,
                \`snapshot_value\` decimal(15, 2) NULL,
                \`reason\` varchar(200) NULL,
                UNIQUE INDEX \`uq_inventory_count_line\` (\`company_id\`, \`count_id\`, \`product_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`inventory_count\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`count_date\` date NOT NULL,
                \`motive\` varchar(2) NOT NULL,
                \`notes\` varchar(500) NULL,
                \`line_count\` int NOT NULL,
                \`total_value\` decimal(15, 2) NOT NULL DEFAULT '0.00',
                \`created_by\` varchar(100) NOT NULL,
                \`closed_by\` varchar(100) NULL,
                \`closed_at\` datetime(3) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_inventory_count_filial\` (\`company_id\`, \`filial_id\`, \`count_date\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`sped_file\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`period\` varchar(7) NOT NULL,
                \`finalidade\` varchar(1) NOT NULL,
                \`perfil\` varchar(1) NOT NULL,
                \`inventory_count_id\` int NULL,
                \`status\` varchar(10) NOT NULL,
                \`layout_version\` varchar(3) NULL,
                \`line_count\` int NULL,
                \`sha256\` varchar(64) NULL,
                \`content_gz\` longblob NULL,
                \`trace_gz\` longblob NULL,
                \`request\` longtext NULL,
                \`findings\` longtext NULL,
                \`error\` varchar(500) NULL,
                \`requested_by\` varchar(100) NOT NULL,
                \`lease_owner\` varchar(80) NULL,
                \`lease_until\` datetime(3) NULL,
                \`finished_at\` datetime(3) NULL,
                \`version\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_sped_file_status\` (\`status\`, \`id\`),
                INDEX \`ix_sped_file_filial\` (\`company_id\`, \`filial_id\`, \`period\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_sped_file_filial\` ON \`sped_file\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sped_file_status\` ON \`sped_file\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sped_file\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_inventory_count_filial\` ON \`inventory_count\`
        `);
    await queryRunner.query(`
            DROP TABLE \`inventory_count\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_inventory_count_line\` ON \`inventory_count_line\`
        `);
    await queryRunner.query(`
            DROP TABLE \`inventory_count_line\`
        `);
  }
}
