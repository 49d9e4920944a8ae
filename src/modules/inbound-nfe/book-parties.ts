import { EntityManager } from 'typeorm';
import { NfeInbound } from './entities/nfe-inbound.entity';
import { decompressXml } from './xml-storage';
import { parseNfe } from '../fiscal-xml';
import type { NfeParty } from '../fiscal-xml';

/* The issuers of received NF-e as their XML names them (address, municipality): the EFD's 0150 of an entry's supplier. */
export async function issuersOfKeys(em: EntityManager, companyId: number, keys: string[]): Promise<Map<string, NfeParty>> {
  if (!keys.length) return new Map();
  const rows = await em
    .createQueryBuilder(NfeInbound, 'n')
    .addSelect('n.xmlGzip')
    .where('n.company_id = :companyId AND n.access_key IN (:...keys) AND n.has_xml = :yes', {
      companyId,
      keys: [...new Set(keys)],
      yes: true,
    })
    .getMany();
  const out = new Map<string, NfeParty>();
  for (const r of rows) {
    if (!r.xmlGzip) continue;
    out.set(r.accessKey, (await parseNfe(decompressXml(r.xmlGzip))).issuer);
  }
  return out;
}
