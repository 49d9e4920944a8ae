import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn, IdColumn, UpdatedAtColumn } from '../../../core/db/columns';

/**
 * A filial's authority settings beyond its UF's defaults (issue 44): the URL of a service of its
 * authorizer or of its SVC set by hand (a UF that moved a service before this table did), and what the
 * emission does when the authorizer is down. Absent → every URL from the tables, contingency automatic.
 */
@Entity('sefaz_authority_setting')
@Index('uq_sefaz_authority_setting_filial', ['companyId', 'filialId'], { unique: true })
export class SefazAuthoritySetting {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @IdColumn({ name: 'company_id' })
  companyId!: number;

  @IdColumn({ name: 'filial_id' })
  filialId!: number;

  /** JSON list of { environment, target: AUTHORIZER | CONTINGENCY, service, url }; read by authority-settings.ts. */
  @Column({ name: 'url_overrides', type: 'text' })
  urlOverrides!: string;

  /** AUTOMATIC_SVC: 108/109 enters SVC by itself; MANUAL: only an operator enters it. */
  @Column({ name: 'nfe_contingency', type: 'varchar', length: 20 })
  nfeContingency!: 'AUTOMATIC_SVC' | 'MANUAL';

  /** AUTOMATIC_OFFLINE: an unanswered NFC-e is signed again offline (tpEmis 9); NONE: it waits for the authority. */
  @Column({ name: 'nfce_contingency', type: 'varchar', length: 20 })
  nfceContingency!: 'AUTOMATIC_OFFLINE' | 'NONE';

  @CreatedAtColumn()
  createdAt!: Date;

  @UpdatedAtColumn()
  updatedAt!: Date;
}
