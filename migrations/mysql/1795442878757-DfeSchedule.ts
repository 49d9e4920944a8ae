import { MigrationInterface, QueryRunner } from 'typeorm';

export class DfeSchedule1795442878757 implements MigrationInterface {
  name = 'DfeSchedule1795442878757';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`sefaz_dfe_schedule\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`next_run_at\` datetime(3) NOT NULL,
                \`lease_owner\` varchar(80) NULL,
                \`lease_until\` datetime(3) NULL,
                \`last_run_started_at\` datetime(3) NULL,
                \`last_run_finished_at\` datetime(3) NULL,
                \`last_outcome\` varchar(20) NULL,
                \`last_cstat\` varchar(3) NULL,
                \`last_message\` varchar(500) NULL,
                \`last_error_code\` varchar(60) NULL,
                \`last_error_at\` datetime(3) NULL,
                \`consecutive_errors\` int NOT NULL DEFAULT '0',
                \`runs\` int NOT NULL DEFAULT '0',
                \`last_received\` int NOT NULL DEFAULT '0',
                \`total_received\` int NOT NULL DEFAULT '0',
                \`last_ciencias\` int NOT NULL DEFAULT '0',
                \`foreign_consumer_at\` datetime(3) NULL,
                \`foreign_consumer_reason\` varchar(500) NULL,
                \`foreign_consumer_detections\` int NOT NULL DEFAULT '0',
                \`ciencia_refusals\` longtext NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_sefaz_dfe_schedule_due\` (\`next_run_at\`),
                UNIQUE INDEX \`uq_sefaz_dfe_schedule_filial\` (\`company_id\`, \`filial_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_sefaz_dfe_schedule_filial\` ON \`sefaz_dfe_schedule\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_sefaz_dfe_schedule_due\` ON \`sefaz_dfe_schedule\`
        `);
    await queryRunner.query(`
            DROP TABLE \`sefaz_dfe_schedule\`
        `);
  }
}
