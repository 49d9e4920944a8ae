import Hashids from 'hashids';
import { config } from './config';

/*
 * Public ids are hashids with one salt per resource type (`<HASHIDS_SALT>:<type>`), so an id of one
 * type never decodes as another. Types are listed here so the set of salts is visible in one place.
 */
export const RESOURCE_TYPES = [
  'company', 'filial', 'product', 'customer', 'seller', 'supplier', 'payment-method', 'stock-movement',
  'entry-document', 'entry-document-item', 'payable', 'product-map', 'nfe-inbound', 'sales-order',
  'sales-order-item', 'fulfillment', 'return', 'purchase-order', 'purchase-order-item', 'event', 'webhook',
] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

const coders = new Map<ResourceType, Hashids>();
const pattern = new RegExp(`^[A-Za-z0-9]{${config.hashids.minLength},32}$`);

function coder(type: ResourceType): Hashids {
  let h = coders.get(type);
  if (!h) {
    h = new Hashids(`${config.hashids.salt}:${type}`, config.hashids.minLength);
    coders.set(type, h);
  }
  return h;
}

export function encodeId(type: ResourceType, id: number): string {
  return coder(type).encode(id);
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
  try {
    const decoded = coder(type).decode(value);
    if (decoded.length !== 1) return 0;
    const n = Number(decoded[0]);
    return Number.isSafeInteger(n) && n > 0 && n <= 2_147_483_647 ? n : 0;
  } catch {
    return 0;
  }
}
