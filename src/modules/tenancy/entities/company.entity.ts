import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn } from '../../../core/db/columns';

@Entity('company')
export class Company {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ type: 'varchar', length: 120 })
  name!: string;

  @Index('uq_company_cnpj', { unique: true })
  @Column({ type: 'varchar', length: 14 })
  cnpj!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @CreatedAtColumn()
  createdAt!: Date;
}
