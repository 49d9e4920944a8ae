import { columnMax, Dec, DECIMAL_COLUMN, ScaleName } from '../decimal';
import { decodeId, isMalformedId, ResourceType } from '../hashids';
import { isCalendarDate } from './schema';

/*
 * Pieces of a hand reading of a hot route's body (RouteSchema.fastBody): each answers what the schema
 * piece of the same name (schema.ts) answers for a value it takes as it is, or undefined for anything
 * else — any value joi might convert, trim or refuse — so the route then validates with joi and every
 * error stays joi's. The test suite checks every fast answer against joi's (validate.ts).
 */

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/** id(type): a well-formed hashid, decoded. */
export const fastId = (type: ResourceType, value: unknown): number | undefined =>
  typeof value === 'string' && value !== '' && !isMalformedId(value) ? decodeId(type, value) : undefined;

/** isoDate(): a calendar date, kept as the string. */
export const fastDate = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length <= 10 && isCalendarDate(value) ? value : undefined;

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/;

/** decimal(scale, opts) for a JSON number or an untrimmed numeric string, as a Dec. */
export function fastDecimal(scale: ScaleName, opts: { min?: number; positive?: boolean } = {}) {
  const column = DECIMAL_COLUMN[scale];
  const places = column.scale;
  const max = columnMax(column.precision, column.scale);
  const min = opts.min !== undefined ? Dec.max(opts.min, max.negated()) : max.negated();
  return (value: unknown): Dec | undefined => {
    let text: string;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return undefined;
      text = value.toString();
    } else if (typeof value === 'string') {
      if (value.length > 60 || !DECIMAL_TEXT.test(value)) return undefined;
      text = value;
    } else return undefined;
    const d = new Dec(text);
    if (d.decimalPlaces() > places || (opts.positive && d.lte(0)) || d.lt(min) || d.gt(max)) return undefined;
    return d;
  };
}
