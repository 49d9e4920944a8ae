import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { IdColumn } from '../../../core/db/columns';

/** An NF-e a CT-e carried (infDoc/infNFe/chave), in document order: resolves CT-e ↔ NF-e both ways. */
@Entity('cte_nfe')
@Index('ix_cte_nfe_cte', ['companyId', 'cteId', 'position'])
@Index('ix_cte_nfe_key', ['companyId', 'nfeKey'])
export class CteNfe {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'cte_id' })
  cteId!: number;

  @Column({ type: 'int' })
  position!: number;

  @Column({ name: 'nfe_key', type: 'varchar', length: 44 })
  nfeKey!: string;
}
