/*
 * From an OpenAPI document, the text of the SDK's generated operations.ts and problems.ts (see
 * sdk-generate.ts). Pure: the same document gives the same text. tests/sdk/coverage.test.ts uses
 * `operationsOf` to hold the committed SDK to the routes.
 */

type Json = Record<string, any>;

export interface GeneratedOperation {
  operationId: string;
  /** The SDK method: the operationId without its `Api` (getApiPurchaseDetailId → getPurchaseDetailId). */
  methodName: string;
  method: string;
  path: string;
  summary: string;
  scope?: string;
  idempotencyKey: boolean;
  /** Takes a request body (JSON, XML or an upload). */
  hasBody: boolean;
  read: 'json' | 'text' | 'bytes' | 'response' | 'none';
  list: 'cursor' | 'page' | null;
  errors: Record<string, string[]>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = doc.components?.schemas?.[String(s.$ref).replace('#/components/schemas/', '')];
  return s;
}

export const methodNameOf = (operationId: string): string => operationId.replace(/^(get|post|put|patch|delete)Api/, '$1');

export function operationsOf(doc: Json): GeneratedOperation[] {
  const out: GeneratedOperation[] = [];
  for (const [p, ops] of Object.entries<Json>(doc.paths)) {
    for (const method of METHODS) {
      const op = ops[method];
      if (!op) continue;
      const successStatus = ['200', '201', '202', '204'].find((s) => op.responses?.[s]);
      const success = successStatus ? op.responses[successStatus] : undefined;
      const types = Object.keys(success?.content ?? {});
      const read = !types.length
        ? 'none'
        : types.includes('application/json')
          ? 'json'
          : types.includes('text/event-stream')
            ? 'response'
            : types.some((t) => t === 'application/pdf' || t === 'application/zip' || t === 'application/octet-stream')
              ? 'bytes'
              : 'text';
      const body = read === 'json' ? resolve(doc, success.content['application/json'].schema) : undefined;
      const queryNames = (op.parameters ?? []).filter((x: Json) => x.in === 'query').map((x: Json) => x.name as string);
      const isPage = !!(body?.properties?.data?.type === 'array' && body?.properties?.pagination);
      const errors: Record<string, string[]> = {};
      for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
        const codes = r.content?.['application/problem+json']?.schema?.allOf?.[1]?.properties?.code?.enum as string[] | undefined;
        if (codes) errors[status] = codes;
      }
      out.push({
        operationId: op.operationId,
        methodName: methodNameOf(op.operationId),
        method: method.toUpperCase(),
        path: p.replace(/^\/api/, ''),
        summary: op.summary ?? '',
        scope: op['x-required-scope'],
        idempotencyKey: (op.parameters ?? []).some((x: Json) => x.in === 'header' && x.name === 'Idempotency-Key'),
        hasBody: !!op.requestBody,
        read,
        list: isPage ? (queryNames.includes('cursor') ? 'cursor' : queryNames.includes('page') ? 'page' : null) : null,
        errors,
      });
    }
  }
  return out.sort((a, b) => (a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0));
}

const comment = (text: string) => text.replace(/\*\//g, '* /');

export function sdkOperations(doc: Json): { operations: string; problems: string } {
  const ops = operationsOf(doc);
  const table = ops
    .map(
      (o) =>
        `  ${o.operationId}: { method: '${o.method}', path: '${o.path}', idempotencyKey: ${o.idempotencyKey}, read: '${o.read}', list: ${o.list ? `'${o.list}'` : 'null'} },`,
    )
    .join('\n');
  const methods = ops
    .map((o) => {
      const errs = Object.entries(o.errors)
        .filter(([s]) => !['401', '429', '500'].includes(s))
        .map(([s, codes]) => `${s} ${codes.join(', ')}`)
        .join('; ');
      const doc1 = [
        `  /**`,
        `   * ${comment(o.summary)}.`,
        `   * \`${o.method} /api${o.path}\`${o.scope ? ` (scope \`${o.scope}\`)` : ''}${o.idempotencyKey ? '; sends an Idempotency-Key, the same on every retry' : ''}.`,
        ...(errs ? [`   * Problems: ${comment(errs)}.`] : []),
        `   */`,
      ];
      const sig = `(args: ArgsOf<'${o.operationId}'>${optionalArgs(o) ? " = {} as ArgsOf<'" + o.operationId + "'>" : ''}, options?: CallOptions)`;
      const lines = [
        ...doc1,
        `  ${o.methodName}${sig}: Promise<ResultOf<'${o.operationId}'>> {`,
        `    return callOperation(this.http, OPERATIONS.${o.operationId}, args, options);`,
        `  }`,
      ];
      if (o.list) {
        lines.push(
          `  /** Every item of \`${o.method} /api${o.path}\`, page after page (${o.list === 'cursor' ? 'by nextCursor' : 'by page'}): \`for await (const item of …)\`. */`,
          `  ${o.methodName}All${sig}: AsyncGenerator<ItemOf<'${o.operationId}'>> {`,
          `    return iterateOperation(this.http, OPERATIONS.${o.operationId}, args, options);`,
          `  }`,
        );
      }
      return lines.join('\n');
    })
    .join('\n\n');
  const errorMap = ops.map((o) => `  ${o.operationId}: ${union(Object.values(o.errors).flat())};`).join('\n');
  const operations = `import type { CallOptions, HttpClient } from './http';
import { ArgsOf, callOperation, ItemOf, iterateOperation, OperationSpec, ResultOf } from './operation';

/** Every operation of the API's OpenAPI document (${ops.length}), by operationId. */
export const OPERATIONS = {
${table}
} as const satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof OPERATIONS;

/** The problem codes each operation's documented answers list. */
export interface OperationProblems {
${errorMap}
}

/**
 * One method per operation of the API (\`client.operations\`), named after its operationId, typed from the
 * document: path parameters (a path \`filialId\` defaults to the client's), \`query\`, \`body\` (or \`raw\` for
 * XML and uploads). A paginated list also has \`…All\`, an async iterator over every item.
 */
export class Operations {
  constructor(private readonly http: HttpClient) {}

${methods}
}
`;
  const codes = new Map<string, Set<number>>();
  for (const o of ops)
    for (const [s, list] of Object.entries(o.errors))
      for (const c of list) (codes.get(c) ?? codes.set(c, new Set()).get(c)!).add(Number(s));
  const sorted = [...codes.keys()].sort();
  const problems = `/** Every problem code the API's document lists, with the statuses it comes with (${sorted.length} codes). */
export interface ProblemCodes {
${sorted.map((c) => `  ${c}: ${[...codes.get(c)!].sort((a, b) => a - b).join(' | ')};`).join('\n')}
}

export type ProblemCode = keyof ProblemCodes;

export const PROBLEM_CODES: readonly ProblemCode[] = [
${sorted.map((c) => `  '${c}',`).join('\n')}
];
`;
  return { operations, problems };
}

const union = (codes: string[]) => {
  const u = [...new Set(codes)].sort();
  return u.length ? u.map((c) => `'${c}'`).join(' | ') : 'never';
};

/** Whether every argument is optional: no path parameter other than filialId, no JSON body that is required. */
function optionalArgs(o: GeneratedOperation): boolean {
  const params = [...o.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((n) => n !== 'filialId');
  return !params.length && !o.hasBody;
}
