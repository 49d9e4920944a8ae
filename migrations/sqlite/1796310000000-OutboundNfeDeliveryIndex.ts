import { MigrationInterface, QueryRunner } from 'typeorm';

/* ix_outbound_nfe_delivery: the delivery pass finds the authorized NF-e whose email is due (status, email_status). */

export class OutboundNfeDeliveryIndex1796310000000 implements MigrationInterface {
  name = 'OutboundNfeDeliveryIndex1796310000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_outbound_nfe_delivery" ON "outbound_nfe" ("status", "email_status")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "ix_outbound_nfe_delivery"
        `);
  }
}
