import { MigrationInterface, QueryRunner } from 'typeorm';

export class TenantSettings1795441753811 implements MigrationInterface {
  name = 'TenantSettings1795441753811';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`company\`
            ADD \`purchase_quantity_tolerance_pct\` decimal(7, 4) NOT NULL DEFAULT '0.0000'
        `);
    await queryRunner.query(`
            ALTER TABLE \`company\`
            ADD \`purchase_price_tolerance_pct\` decimal(7, 4) NOT NULL DEFAULT '2.0000'
        `);
    await queryRunner.query(`
            ALTER TABLE \`company\`
            ADD \`purchase_tolerance_mode\` varchar(5) NOT NULL DEFAULT 'BLOCK'
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`tax_regime\` varchar(20) NOT NULL DEFAULT 'SIMPLES_NACIONAL'
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`dfe_sync_enabled\` tinyint NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\`
            ADD \`dfe_sync_interval_minutes\` int NOT NULL DEFAULT '60'
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`dfe_sync_interval_minutes\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`dfe_sync_enabled\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`filial\` DROP COLUMN \`tax_regime\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`company\` DROP COLUMN \`purchase_tolerance_mode\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`company\` DROP COLUMN \`purchase_price_tolerance_pct\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`company\` DROP COLUMN \`purchase_quantity_tolerance_pct\`
        `);
  }
}
