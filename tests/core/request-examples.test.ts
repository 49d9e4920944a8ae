import { expect } from 'chai';
import { buildOpenApi } from '../../src/core/openapi/openapi';
import { allRoutes } from '../../src/modules';

/*
 * Every request body of the OpenAPI document has an example (hand-written on the route, else generated
 * from its joi schema) that passes the route's own validation, as a request would be validated: a
 * reader's first "Try it out" is a valid call. Routes added later are covered as they are merged; one
 * whose example cannot be generated is named here.
 */
describe('OpenAPI: every request body has an example the route accepts', () => {
  const doc = buildOpenApi(allRoutes()) as Record<string, any>;
  const withBody = allRoutes().filter((r) => r.schema?.body);

  it(`${withBody.length} routes: the example is in the document and passes the route's joi schema`, () => {
    const failures: string[] = [];
    for (const r of withBody) {
      const path = `/api${r.path}`.replace(/:(\w+)/g, '{$1}');
      const media = doc.paths[path][r.method].requestBody?.content?.['application/json'];
      const example = media?.example;
      if (example === undefined) {
        failures.push(`${r.method.toUpperCase()} ${r.path}: no example`);
        continue;
      }
      const { error } = r.schema!.body!.validate(example, { abortEarly: false });
      if (error) failures.push(`${r.method.toUpperCase()} ${r.path}: ${error.details.map((d) => d.message).join('; ')} — ${JSON.stringify(example).slice(0, 300)}`);
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('decimal fields are described in words, without the column limits', () => {
    const descriptions: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'description' && typeof x === 'string' ? descriptions.push(x) : walk(x);
    };
    walk(doc);
    expect(descriptions.filter((d) => /\d{9,}|from -?\d[\d.]* to /.test(d))).to.deep.equal([]);
    expect(descriptions).to.include('An amount in reais: up to 2 decimal places, greater than 0; a JSON number or a numeric string (e.g. "1289.90").');
  });
});
