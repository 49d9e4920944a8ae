import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import { CreatedAtColumn } from '../core/db/columns';

/*
 * The documents the demo seed made (src/demo/demo-documents.ts), one per kind: a restart finds them
 * and does not seed again, and the OpenAPI document's path examples show their ids (demo-ids.ts).
 * `kind` is the hashid resource type of the row (sales-order, invoice, nfce…); `documentId` its row id.
 */
@Entity('demo_document')
@Index('uq_demo_document_kind', ['companyId', 'kind'], { unique: true })
export class DemoDocument {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'company_id', type: 'int' })
  companyId!: number;

  @Column({ type: 'varchar', length: 40 })
  kind!: string;

  @Column({ name: 'document_id', type: 'int' })
  documentId!: number;

  @CreatedAtColumn()
  createdAt!: Date;
}
