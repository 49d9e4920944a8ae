import type { EntityManager } from 'typeorm';
import { definePort } from '../../core/port';

/** Products point to a company tax group (fiscal module, which reads the catalog): checked through this port. */
export interface TaxGroupLookup {
  exists(em: EntityManager, companyId: number, taxGroupId: number): Promise<boolean>;
}
export const taxGroupLookup = definePort<TaxGroupLookup>('taxGroupLookup');
