import { MigrationInterface, QueryRunner } from 'typeorm';

export class DemoDocument1796287765318 implements MigrationInterface {
  name = 'DemoDocument1796287765318';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE \`demo_document\` (
                \`id\` int NOT NULL AUTO_INCREMENT,
                \`company_id\` int NOT NULL,
                \`kind\` varchar(40) NOT NULL,
                \`document_id\` int NOT NULL,
                \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
                UNIQUE INDEX \`uq_demo_document_kind\` (\`company_id\`, \`kind\`),
                PRIMARY KEY (\`id\`)
            ) ENGINE = InnoDB
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`uq_demo_document_kind\` ON \`demo_document\`
        `);
    await queryRunner.query(`
            DROP TABLE \`demo_document\`
        `);
  }
}
