import { MigrationInterface, QueryRunner } from 'typeorm';

export class NfeBatchAndDeadlines1795443644168 implements MigrationInterface {
  name = 'NfeBatchAndDeadlines1795443644168';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`nfe_batch_file\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`job_id\` int NOT NULL,
                \`seq\` int NOT NULL,
                \`name\` varchar(255) NOT NULL,
                \`size\` int NOT NULL,
                \`kind\` varchar(10) NULL,
                \`phase\` int NOT NULL DEFAULT '0',
                \`content_gz\` longblob NULL,
                \`status\` varchar(10) NOT NULL,
                \`access_key\` varchar(44) NULL,
                \`inbound_id\` int NULL,
                \`problem_code\` varchar(60) NULL,
                \`message\` varchar(500) NULL,
                \`processed_order\` int NULL,
                \`processed_at\` datetime(3) NULL,
                INDEX \`ix_nfe_batch_file_order\` (\`company_id\`, \`job_id\`, \`processed_order\`),
                INDEX \`ix_nfe_batch_file_pending\` (\`company_id\`, \`job_id\`, \`status\`, \`phase\`, \`seq\`),
                UNIQUE INDEX \`uq_nfe_batch_file_seq\` (\`company_id\`, \`job_id\`, \`seq\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`nfe_batch_job\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`status\` varchar(10) NOT NULL,
                \`format\` varchar(10) NOT NULL,
                \`upload_sha256\` varchar(64) NOT NULL,
                \`total\` int NOT NULL,
                \`processed\` int NOT NULL DEFAULT '0',
                \`staged\` int NOT NULL DEFAULT '0',
                \`duplicates\` int NOT NULL DEFAULT '0',
                \`invalid\` int NOT NULL DEFAULT '0',
                \`lease_owner\` varchar(80) NULL,
                \`lease_until\` datetime(3) NULL,
                \`error\` varchar(500) NULL,
                \`created_by\` varchar(120) NOT NULL,
                \`request_id\` varchar(64) NULL,
                \`started_at\` datetime(3) NULL,
                \`finished_at\` datetime(3) NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_nfe_batch_job_status\` (\`status\`, \`lease_until\`),
                INDEX \`ix_nfe_batch_job_filial\` (\`company_id\`, \`filial_id\`, \`id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE TABLE \`nfe_manifestation_deadline\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`filial_id\` int NOT NULL,
                \`inbound_id\` int NOT NULL,
                \`inbound_version\` int NOT NULL,
                \`rule\` varchar(20) NOT NULL,
                \`provisional\` tinyint NOT NULL DEFAULT 0,
                \`authorized_at\` datetime(3) NOT NULL,
                \`confirmacao_until\` date NOT NULL,
                \`desconhecimento_until\` date NOT NULL,
                \`nao_realizada_until\` date NOT NULL,
                \`due_date\` date NOT NULL,
                \`open\` tinyint NOT NULL,
                \`notified_threshold\` int NULL,
                \`version\` int NOT NULL DEFAULT '1',
                \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
                INDEX \`ix_nfe_manifestation_deadline_due\` (
                    \`company_id\`,
                    \`filial_id\`,
                    \`open\`,
                    \`due_date\`,
                    \`id\`
                ),
                UNIQUE INDEX \`uq_nfe_manifestation_deadline_inbound\` (\`company_id\`, \`inbound_id\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_nfe_inbound_filial_authorized\` ON \`nfe_inbound\` (\`company_id\`, \`filial_id\`, \`authorized_at\`)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_inbound_filial_authorized\` ON \`nfe_inbound\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_nfe_manifestation_deadline_inbound\` ON \`nfe_manifestation_deadline\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_manifestation_deadline_due\` ON \`nfe_manifestation_deadline\`
        `);
    await queryRunner.query(`
            DROP TABLE \`nfe_manifestation_deadline\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_batch_job_filial\` ON \`nfe_batch_job\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_batch_job_status\` ON \`nfe_batch_job\`
        `);
    await queryRunner.query(`
            DROP TABLE \`nfe_batch_job\`
        `);
    await queryRunner.query(`
            DROP INDEX \`uq_nfe_batch_file_seq\` ON \`nfe_batch_file\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_batch_file_pending\` ON \`nfe_batch_file\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_nfe_batch_file_order\` ON \`nfe_batch_file\`
        `);
    await queryRunner.query(`
            DROP TABLE \`nfe_batch_file\`
        `);
  }
}
