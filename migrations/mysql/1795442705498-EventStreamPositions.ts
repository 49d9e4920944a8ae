import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventStreamPositions1795442705498 implements MigrationInterface {
  name = 'EventStreamPositions1795442705498';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX \`ix_outbox_company_type\` ON \`outbox_event\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_outbox_company\` ON \`outbox_event\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_webhook_delivery_due\` ON \`webhook_delivery\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`webhook_subscription\` CHANGE \`last_event_id\` \`last_position\` int NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            CREATE TABLE \`outbox_stream\` (
                \`company_id\` int NOT NULL,
                \`stream\` varchar(64) NOT NULL,
                \`last_value\` int NOT NULL DEFAULT '0',
                PRIMARY KEY (\`company_id\`, \`stream\`)
            ) ENGINE = InnoDB
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbox_event\`
            ADD \`stream_position\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbox_event\`
            ADD \`resource_seq\` int NULL
        `);
    await queryRunner.query(`
            ALTER TABLE \`webhook_delivery\`
            ADD \`lease_token\` varchar(32) NULL
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_outbox_company_type_position\` ON \`outbox_event\` (\`company_id\`, \`type\`, \`stream_position\`)
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX \`ux_outbox_company_position\` ON \`outbox_event\` (\`company_id\`, \`stream_position\`)
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_webhook_delivery_due\` ON \`webhook_delivery\` (\`subscription_id\`, \`status\`, \`next_attempt_at\`)
        `);
    // Data: events written before positions existed get them in id order (as they were read),
    // and each subscription's cursor (the last event id it had fanned out, copied above) becomes
    // the position of that event.
    await queryRunner.query(`
            UPDATE \`outbox_event\` e
            JOIN (
                SELECT id,
                    ROW_NUMBER() OVER (PARTITION BY company_id ORDER BY id) AS p,
                    ROW_NUMBER() OVER (PARTITION BY company_id, aggregate_type, aggregate_id ORDER BY id) AS s
                FROM \`outbox_event\`
            ) r ON r.id = e.id
            SET e.stream_position = r.p, e.resource_seq = r.s
        `);
    await queryRunner.query(`
            INSERT INTO \`outbox_stream\` (company_id, stream, last_value)
            SELECT company_id, '*', MAX(stream_position) FROM \`outbox_event\` GROUP BY company_id
            UNION ALL
            SELECT company_id, CONCAT(aggregate_type, ':', aggregate_id), MAX(resource_seq) FROM \`outbox_event\` GROUP BY company_id, aggregate_type, aggregate_id
        `);
    await queryRunner.query(`
            UPDATE \`webhook_subscription\` s
            SET s.last_position = COALESCE((SELECT MAX(e.stream_position) FROM \`outbox_event\` e WHERE e.company_id = s.company_id AND e.id <= s.last_position), 0)
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Subscriptions' cursors back to event ids (the position's event).
    await queryRunner.query(`
            UPDATE \`webhook_subscription\` s
            SET s.last_position = COALESCE((SELECT MAX(e.id) FROM \`outbox_event\` e WHERE e.company_id = s.company_id AND e.stream_position <= s.last_position), 0)
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_webhook_delivery_due\` ON \`webhook_delivery\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ux_outbox_company_position\` ON \`outbox_event\`
        `);
    await queryRunner.query(`
            DROP INDEX \`ix_outbox_company_type_position\` ON \`outbox_event\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`webhook_delivery\` DROP COLUMN \`lease_token\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbox_event\` DROP COLUMN \`resource_seq\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`outbox_event\` DROP COLUMN \`stream_position\`
        `);
    await queryRunner.query(`
            DROP TABLE \`outbox_stream\`
        `);
    await queryRunner.query(`
            ALTER TABLE \`webhook_subscription\` CHANGE \`last_position\` \`last_event_id\` int NOT NULL DEFAULT 0
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_webhook_delivery_due\` ON \`webhook_delivery\` (\`status\`, \`next_attempt_at\`)
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_outbox_company\` ON \`outbox_event\` (\`company_id\`, \`id\`)
        `);
    await queryRunner.query(`
            CREATE INDEX \`ix_outbox_company_type\` ON \`outbox_event\` (\`company_id\`, \`type\`, \`id\`)
        `);
  }
}
