import Hashids from 'hashids';
import { config } from '../../core/config';
import { ValidationError } from '../../core/errors';
import { decodeId, isMalformedId } from '../../core/hashids';

/*
 * Event cursors (`after=`, `nextCursor`, the SSE `id:` / `Last-Event-ID`). Version 1 encodes
 * [1, companyId, position] with a salt of its own, so a cursor is opaque, bound to its tenant, and
 * never decodes as any other id. Also accepted: `0` (from the first event) and, for clients written
 * against the first API, an event id (the cursor at that event's position).
 */
const VERSION = 1;
const codec = new Hashids(`${config.hashids.salt}:event-cursor`, 10);
const shape = /^[A-Za-z0-9]{1,64}$/;

export type EventCursor = { kind: 'position'; position: number } | { kind: 'event'; eventId: number };

export const encodeCursor = (companyId: number, position: number): string => codec.encode(VERSION, companyId, position);

export const invalidCursor = () =>
  new ValidationError('Invalid cursor', [{ path: 'after', message: 'not an event cursor of this tenant' }], 'INVALID_CURSOR');

function decode(value: string): number[] {
  try {
    return codec.decode(value).map(Number);
  } catch {
    return [];
  }
}

/** The cursor as the client sent it; malformed, of another tenant or of another kind → 400 INVALID_CURSOR. */
export function parseCursor(companyId: number, value: string): EventCursor {
  if (value === '0') return { kind: 'position', position: 0 };
  if (!shape.test(value)) throw invalidCursor();
  const numbers = decode(value);
  if (numbers.length === 3 && numbers[0] === VERSION) {
    if (numbers[1] !== companyId || !Number.isSafeInteger(numbers[2])) throw invalidCursor();
    return { kind: 'position', position: numbers[2] };
  }
  const eventId = isMalformedId(value) ? 0 : decodeId('event', value);
  if (!eventId) throw invalidCursor();
  return { kind: 'event', eventId };
}
