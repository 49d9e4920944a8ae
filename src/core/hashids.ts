import Hashids from 'hashids';
import { config } from './config';

/*
 * Public ids are hashids with one salt per resource type (`<HASHIDS_SALT>:<type>`), so an id of one
 * type never decodes as another. Types are listed here so the set of salts is visible in one place.
 */
export const RESOURCE_TYPES = [
  'company', 'filial', 'product', 'customer', 'seller', 'supplier', 'payment-method', 'stock-movement',
  'entry-document', 'entry-document-item', 'payable', 'payable-payment', 'product-map', 'nfe-inbound', 'sales-order',
  'sales-order-item', 'fulfillment', 'return', 'purchase-order', 'purchase-order-item', 'event', 'webhook',
  'entry-cfop-rule', 'third-party-stock', 'nfe-batch', 'cte',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

interface Coder {
  hashids: Hashids;
  /** Recent encodings both ways: every response encodes a dozen ids, mostly the same few hot ones. */
  encoded: Map<number, string>;
  decoded: Map<string, number>;
}

const coders = new Map<ResourceType, Coder>();
const pattern = new RegExp(`^[A-Za-z0-9]{${config.hashids.minLength},32}$`);
/** Per type and direction; a full cache starts over (cheaper than an LRU's bookkeeping, and bounded). */
const CACHE_LIMIT = 20_000;

function coder(type: ResourceType): Coder {
  let c = coders.get(type);
  if (!c) {
    c = { hashids: new Hashids(`${config.hashids.salt}:${type}`, config.hashids.minLength), encoded: new Map(), decoded: new Map() };
    coders.set(type, c);
  }
  return c;
}

function remember<K, V>(cache: Map<K, V>, key: K, value: V): V {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

export function encodeId(type: ResourceType, id: number): string {
  const c = coder(type);
  return c.encoded.get(id) ?? remember(c.encoded, id, c.hashids.encode(id));
}

export function encodeOptionalId(type: ResourceType, id: number | null | undefined): string | null {
  return id === null || id === undefined ? null : encodeId(type, id);
}

/** Not shaped like any hashid at all. */
export const isMalformedId = (value: string): boolean => !pattern.test(value);

/**
 * Decodes a well-formed hashid. An id that does not decode under this type's salt is an id that does
 * not exist: it decodes to 0 (no row has id 0), so lookups answer 404 like any other unknown id.
 */
export function decodeId(type: ResourceType, value: string): number {
  const c = coder(type);
  return c.decoded.get(value) ?? remember(c.decoded, value, decodeOnce(c.hashids, value));
}

function decodeOnce(hashids: Hashids, value: string): number {
  try {
    const decoded = hashids.decode(value);
    if (decoded.length !== 1) return 0;
    const n = Number(decoded[0]);
    return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : 0;
  } catch {
    return 0;
  }
}
