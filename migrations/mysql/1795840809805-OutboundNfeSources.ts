import { MigrationInterface, QueryRunner } from 'typeorm';

export class OutboundNfeSources1795840809805 implements MigrationInterface {
  name = 'OutboundNfeSources1795840809805';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\`
            ADD \`source_id\` int NULL
        `);
    // Widened in place (the generator's DROP + ADD would lose every row's source).
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` MODIFY \`source\` varchar(16) NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` CHANGE \`sales_order_id\` \`sales_order_id\` int NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` CHANGE \`sales_order_id\` \`sales_order_id\` int NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` MODIFY \`source\` varchar(12) NOT NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbound_nfe\` DROP COLUMN \`source_id\`
        `);
  }
}
