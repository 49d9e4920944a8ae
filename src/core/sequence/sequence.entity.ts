import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Per-company counters (order codes, product codes). */
@Entity('sequence')
export class Sequence {
  @PrimaryColumn({ name: 'company_id', type: 'int' })
  companyId!: number;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  name!: string;

  @Column({ type: 'int', default: 0 })
  value!: number;
}
