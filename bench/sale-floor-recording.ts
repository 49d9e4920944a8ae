/* What sale-floor-parts.bench.ts records of a request and its floor server sends again. */
export interface Trip {
  sql: string;
  params: unknown[];
}
export interface Recording {
  trips: Trip[];
  status: number;
  body: unknown;
}

/** Parameters as JSON: dates and buffers tagged, so the driver gets back the values the service gave it. */
export const tagParam = (v: unknown): unknown =>
  v instanceof Date ? { $date: v.toISOString() } : Buffer.isBuffer(v) ? { $buffer: v.toString('base64') } : v;
export const untag = (_k: string, v: unknown): unknown => {
  const o = v as { $date?: string; $buffer?: string } | null;
  return o && typeof o === 'object'
    ? o.$date !== undefined
      ? new Date(o.$date)
      : o.$buffer !== undefined
        ? Buffer.from(o.$buffer, 'base64')
        : v
    : v;
};
