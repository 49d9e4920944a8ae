import type { operations } from './openapi';
import { CallOptions, HttpClient, QueryParams, seg } from './http';

/*
 * The runtime behind the generated `Operations` (operations.ts): one table entry per operation of the
 * API's OpenAPI document, read by `callOperation`, and the types that give each generated method its
 * arguments and result from the generated `operations` types (openapi.ts).
 */

export interface OperationSpec {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path under /api with `{name}` placeholders. */
  path: string;
  /** Sends an Idempotency-Key (the same on every retry). */
  idempotencyKey: boolean;
  /** How the success body is read. `response`: a stream (server-sent events), handed over unread. */
  read: 'json' | 'text' | 'bytes' | 'response' | 'none';
  /** A paginated list: walked by `nextCursor`, else by `page`. */
  list: 'cursor' | 'page' | null;
}

type Op<K extends keyof operations> = operations[K];
type ParamsOf<K extends keyof operations> = Op<K> extends { parameters: infer P } ? P : never;
type PathParams<K extends keyof operations> = ParamsOf<K> extends { path: infer T } ? ([T] extends [never] ? {} : T extends object ? T : {}) : {};
type QueryParamsOf<K extends keyof operations> = ParamsOf<K> extends { query?: infer Q } ? ([Q] extends [never] ? never : Q) : never;
type Content<K extends keyof operations> = Op<K> extends { requestBody?: never } ? never : Op<K> extends { requestBody?: { content: infer C } } ? C : never;
type JsonBody<K extends keyof operations> = Content<K> extends { 'application/json': infer B } ? B : never;

/** Another body than JSON, sent as is: an XML document, a ZIP of XML files, a multipart form. */
export interface RawBody {
  data: string | Uint8Array;
  contentType: string;
}

/** `filialId` in a path defaults to the client's. */
type WithDefaultFilial<P> = P extends { filialId: unknown } ? Omit<P, 'filialId'> & { filialId?: string } : P;
type QueryArg<K extends keyof operations> = [QueryParamsOf<K>] extends [never] ? {} : { query?: QueryParamsOf<K> };
type BodyArg<K extends keyof operations> = [Content<K>] extends [never]
  ? {}
  : Content<K> extends { 'application/xml': unknown } | { 'application/zip': unknown }
    ? { body?: JsonBody<K>; raw?: RawBody }
    : { body: JsonBody<K> };

/** The arguments of an operation: its path parameters, `query`, and `body` (or `raw`). */
export type ArgsOf<K extends keyof operations> = WithDefaultFilial<PathParams<K>> & QueryArg<K> & BodyArg<K>;

type Responses<K extends keyof operations> = Op<K> extends { responses: infer R } ? R : never;
type Success<K extends keyof operations> = Responses<K> extends { 200: infer S } ? S : Responses<K> extends { 201: infer S } ? S : Responses<K> extends { 202: infer S } ? S : never;
type BodyOfResponse<S> = S extends { content: infer C }
  ? C extends { 'application/json': infer T }
    ? T
    : C extends { 'text/event-stream': unknown }
      ? Response
      : C extends { 'application/pdf': unknown } | { 'application/zip': unknown }
        ? Uint8Array
        : string
  : void;

/** What an operation answers: the JSON body, text (XML), bytes (PDF), the stream (SSE), or nothing (204). */
export type ResultOf<K extends keyof operations> = BodyOfResponse<Success<K>>;

/** The item of a paginated list operation. */
export type ItemOf<K extends keyof operations> = ResultOf<K> extends { data: (infer I)[] } ? I : never;

function pathOf(http: HttpClient, spec: OperationSpec, args: Record<string, unknown>): string {
  return spec.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = args[name] ?? (name === 'filialId' ? http.filialId : undefined);
    if (value === undefined || value === null) throw new TypeError(`${spec.method} ${spec.path} needs ${name}`);
    return seg(String(value));
  });
}

/** Runs one operation of the table. */
export function callOperation<T>(http: HttpClient, spec: OperationSpec, args: object = {}, options?: CallOptions): Promise<T> {
  const a = args as { query?: QueryParams; body?: unknown; raw?: RawBody } & Record<string, unknown>;
  return http.request<T>({
    method: spec.method,
    path: pathOf(http, spec, a),
    query: a.query,
    body: a.raw ? undefined : a.body,
    raw: a.raw,
    idempotent: spec.idempotencyKey,
    read: spec.read === 'none' ? 'json' : spec.read,
    options,
  });
}

interface ListPage<I> {
  data: I[];
  pagination: { hasMore?: boolean; nextCursor?: string | null; page?: number; totalPages?: number | null };
}

/** Every item of a list operation, page after page (by cursor, else by page number), lazily. */
export async function* iterateOperation<I>(http: HttpClient, spec: OperationSpec, args: object = {}, options?: CallOptions): AsyncGenerator<I> {
  const a = args as { query?: QueryParams } & Record<string, unknown>;
  let query: QueryParams = { ...(a.query ?? {}) };
  for (;;) {
    const page = await callOperation<ListPage<I>>(http, spec, { ...a, query }, options);
    for (const item of page.data) yield item;
    const p = page.pagination;
    if (!p || !page.data.length) return;
    if (spec.list === 'cursor' && p.nextCursor) query = { ...query, cursor: p.nextCursor, page: undefined };
    else if (p.hasMore ?? (p.totalPages != null && (p.page ?? 1) < p.totalPages)) query = { ...query, page: (p.page ?? Number(query.page ?? 1)) + 1 };
    else return;
  }
}
