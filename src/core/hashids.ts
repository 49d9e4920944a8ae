import Hashids from 'hashids';
// The library's own shuffle: the fast encoder below derives its tables with it. A library internal,
// registered in docs/decisions/library-internals.md (hashids pinned exactly; guarded by
// tests/core/library-internals.test.ts and tests/core/hashids.test.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a package-internal file without typings
const { shuffle } = require('hashids/cjs/util') as { shuffle: (alphabet: string[], salt: string[]) => string[] };
import { config } from './config';

/*
 * Public ids are hashids with one salt per resource type (`<HASHIDS_SALT>:<type>`), so an id of one
 * type never decodes as another. Types are listed here so the set of salts is visible in one place.
 */
export const RESOURCE_TYPES = [
  'company',
  'filial',
  'product',
  'customer',
  'seller',
  'supplier',
  'payment-method',
  'stock-movement',
  'entry-document',
  'entry-document-item',
  'payable',
  'payable-payment',
  'product-map',
  'nfe-inbound',
  'sales-order',
  'sales-order-item',
  'fulfillment',
  'return',
  'purchase-order',
  'purchase-order-item',
  'event',
  'webhook',
  'entry-cfop-rule',
  'third-party-stock',
  'nfe-batch',
  'cte',
  'invoice',
  'invoice-series',
  'tax-group',
  'fiscal-rule',
  'fiscal-uf-rate',
  'receivable',
  'receivable-receipt',
  'customer-credit',
  'nfce',
  'supplier-return',
  'transfer',
  'supplier-return-item',
  'supplier-credit',
  'cash-session',
  'cash-movement',
  'bank-account',
  'boleto',
  'remittance',
  'bank-return',
  'pix-charge',
  'pix-payment',
  'pix-refund',
  'inventory-count',
  'inventory-count-line',
  'sped-file',
  'st-agreement',
  'ciap-asset',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

interface Coder {
  hashids: Hashids;
  /** hashids.encode of one number, by tables (see singleEncoder); undefined if it did not match the library. */
  fast?: (id: number) => string;
  /** Recent encodings and decodings: a response holds a dozen ids, mostly the same few hot ones. */
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
    const hashids = new Hashids(`${config.hashids.salt}:${type}`, config.hashids.minLength);
    c = { hashids, fast: singleEncoder(hashids, config.hashids.minLength), encoded: new Map(), decoded: new Map() };
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
  // A remembered id costs a Map hit; one never seen, the tables (a fifth of a microsecond, the library ~2 µs).
  const known = c.encoded.get(id);
  if (known !== undefined) return known;
  return remember(c.encoded, id, c.fast && Number.isSafeInteger(id) && id >= 0 ? c.fast(id) : c.hashids.encode(id));
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

/*
 * hashids.encode of a single number is a function of `id % 100` and the digits of `id` in an alphabet
 * that itself depends only on `id % 100` (the "lottery"): the library reshuffles its alphabet for
 * every call (about 2 µs, a hundred ids in a list page). Here the hundred alphabets, lottery
 * characters, guards and padding are worked out once per type with the library's own shuffle, so an
 * encode is a base conversion and a slice. Checked against the library on a spread of numbers when
 * built (any disagreement: the library encodes, as before) and by the test suite. It reads the
 * instance's private alphabet, salt and guards and the library's internal shuffle: kept because a
 * list page of ids never seen costs 11–20 % less CPU (bench/library-internals.bench.ts).
 */
export function singleEncoder(hashids: Hashids, minLength: number): ((id: number) => string) | undefined {
  const h = hashids as unknown as { alphabet: string[]; salt: string[]; guards: string[] };
  const lotteries: string[] = [];
  const alphabets: string[][] = [];
  const paddings: string[] = [];
  for (let r = 0; r < 100; r++) {
    const lottery = h.alphabet[r % h.alphabet.length];
    const alphabet = shuffle(h.alphabet, [lottery, ...h.salt, ...h.alphabet]);
    lotteries.push(lottery);
    alphabets.push(alphabet);
    paddings.push(shuffle(alphabet, alphabet).join(''));
  }
  const guards = h.guards;
  const half = Math.floor(h.alphabet.length / 2);
  const encode = (id: number): string => {
    const r = id % 100;
    const alphabet = alphabets[r];
    const base = alphabet.length;
    let digits = '';
    let value = id;
    do {
      digits = alphabet[value % base] + digits;
      value = Math.floor(value / base);
    } while (value > 0);
    const lottery = lotteries[r];
    let ret = lottery + digits;
    if (ret.length >= minLength) return ret;
    ret = guards[(r + lottery.codePointAt(0)!) % guards.length] + ret;
    if (ret.length < minLength) ret += guards[(r + ret.codePointAt(2)!) % guards.length];
    if (ret.length >= minLength) return ret;
    // One round of padding (half of the alphabet each side) reaches any minLength the config allows.
    const padding = paddings[r];
    ret = padding.slice(half) + ret + padding.slice(0, half);
    const excess = ret.length - minLength;
    if (excess < 0) return hashids.encode(id);
    const from = Math.trunc(excess / 2);
    return ret.slice(from, from + minLength);
  };
  for (let id = 0; id < 1000; id++) {
    for (const n of [id, id * 7919 + 13, 2_147_483_647 - id, Number.MAX_SAFE_INTEGER - id])
      if (encode(n) !== hashids.encode(n)) return undefined;
  }
  return encode;
}
