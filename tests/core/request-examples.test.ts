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
      if (error)
        failures.push(
          `${r.method.toUpperCase()} ${r.path}: ${error.details.map((d) => d.message).join('; ')} — ${JSON.stringify(example).slice(0, 300)}`,
        );
    }
    expect(failures, failures.join('\n')).to.deep.equal([]);
  });

  it('example values fit their fields: numbers for séries and numbers, https URLs, no product name for a person, a company or a reason', () => {
    const problems: string[] = [];
    const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);
    const walk = (where: string, key: string, value: unknown, schema: any): void => {
      schema = resolve(schema);
      if (Array.isArray(value)) return value.forEach((v) => walk(where, key, v, schema?.items));
      if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) walk(where, k, v, schema?.properties?.[k]);
        return;
      }
      const at = `${where} ${key}=${JSON.stringify(value)}`;
      if (/^(series|number|nextNumber|first|last)$/.test(key) && schema?.type === 'integer' && typeof value !== 'number')
        problems.push(`${at}: an integer field shows a string`);
      if (/url$/i.test(key) && !(typeof value === 'string' && value.startsWith('https://'))) problems.push(`${at}: not an https URL`);
      // The generic text is a product's name: only a product (or a line describing one) may carry it.
      if (value === 'Café torrado 500 g' && !/\/catalog\/products/.test(where))
        problems.push(`${at}: a product's name where something else is named`);
      if (/^(kind|method|refundMethod|code)$/.test(key) && typeof value === 'string' && /\s/.test(value))
        problems.push(`${at}: a code with spaces`);
    };
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const media = op.requestBody?.content?.['application/json'];
        if (media?.example !== undefined) walk(`${method.toUpperCase()} ${path}`, '', media.example, media.schema);
      }
    }
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it('decimal fields are described in words, without the column limits', () => {
    const descriptions: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object')
        for (const [k, x] of Object.entries(v)) k === 'description' && typeof x === 'string' ? descriptions.push(x) : walk(x);
    };
    walk(doc);
    expect(descriptions.filter((d) => /\d{9,}|from -?\d[\d.]* to /.test(d))).to.deep.equal([]);
    expect(descriptions).to.include(
      'An amount in reais: up to 2 decimal places, greater than 0; a JSON number or a numeric string (e.g. "1289.90").',
    );
  });
});
