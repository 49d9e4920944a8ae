import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** The kinds of party the word index holds. */
export type PartyType = 'CUSTOMER' | 'SELLER';

/**
 * Word index of customers (name and trade name) and sellers (name and alias): one row per (company,
 * party type, folded word, party). A text search walks the prefix range of a word on the primary key
 * instead of scanning names, so "silva" finds "Maria da Silva" at any table size. Kept in step with
 * the party, in the same transaction, by `indexParties` (catalog/party-search-index.ts).
 */
@Entity('party_search_token')
@Index('ix_party_search_token_party', ['companyId', 'partyType', 'partyId', 'token'])
export class PartySearchToken {
  @PrimaryColumn({ name: 'company_id', type: 'int' })
  companyId!: number;

  @PrimaryColumn({ name: 'party_type', type: 'varchar', length: 10 })
  partyType!: PartyType;

  @PrimaryColumn({ type: 'varchar', length: 40 })
  token!: string;

  @PrimaryColumn({ name: 'party_id', type: 'int' })
  partyId!: number;

  /**
   * All the party's index words (`spacedWords`), on each of its rows: a term of several words walks
   * the first word's range and tests the others on the row it reads, with no index probe per party.
   * Names are at most 150 + 150 characters (120 + 60 for sellers) and folding at most triples one
   * (ﬃ → FFI), so 1,000 holds any party's words.
   */
  @Column({ type: 'varchar', length: 1000, default: '' })
  words!: string;
}
