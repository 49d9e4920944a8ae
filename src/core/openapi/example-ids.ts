import { encodeId, ResourceType } from '../hashids';

/*
 * The ids the OpenAPI document's examples show. Where the demo tenant is seeded (src/demo), the server
 * builds its document with the demo's own ids (its filiais, products, customers…), so Swagger UI's "Try
 * it out" reaches rows that exist; elsewhere (the SDK, tests without the demo) plausible ids of no row.
 * Set for the length of one synchronous build (buildOpenApi).
 */
export type ExampleIds = Partial<Record<ResourceType, string[]>>;

let current: ExampleIds = {};

/** Candidate ids of a type for an example, the demo's first. */
export function exampleIdsOf(type: ResourceType): string[] {
  return [...(current[type] ?? []), ...[1042, 1043, 1044].map((n) => encodeId(type, n))];
}

/** Runs a synchronous build with these example ids. */
export function withExampleIds<T>(ids: ExampleIds, build: () => T): T {
  const before = current;
  current = ids;
  try {
    return build();
  } finally {
    current = before;
  }
}
