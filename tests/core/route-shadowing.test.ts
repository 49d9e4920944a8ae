import { expect } from 'chai';
import { allRoutes, routesByModule } from '../../src/modules';

/*
 * Express tries routes in mounting order, so a parameterized path listed before a literal one of the
 * same shape (`/entry-document/:id` before `/entry-document/cfop-rules`) answers in its place. Several
 * modules share prefixes (six answer under /entry-document), so the mounting order is checked here
 * rather than kept by a comment: no route may be unreachable because an earlier one takes its requests,
 * and no module's route may take another module's requests in either order, so the order between
 * modules is free (it only arranges the OpenAPI document).
 */
const segments = (path: string): string[] => path.split('/').filter(Boolean);
const isParam = (segment: string): boolean => segment.startsWith(':');

/** Whether `earlier` matches every request `later` would: same length, each literal of `later` taken. */
function shadows(earlier: string[], later: string[]): boolean {
  if (earlier.length !== later.length) return false;
  return earlier.every((segment, i) => isParam(segment) || (!isParam(later[i]) && segment === later[i]));
}

describe('Route table: no route shadows another', () => {
  it('every route is reachable in mounting order', () => {
    const routes = allRoutes();
    const shadowed: string[] = [];
    routes.forEach((route, i) => {
      const later = segments(route.path);
      for (const earlier of routes.slice(0, i)) {
        if (earlier.method !== route.method) continue;
        if (shadows(segments(earlier.path), later)) shadowed.push(`${route.method.toUpperCase()} ${route.path} (taken by ${earlier.path})`);
      }
    });
    expect(shadowed).to.deep.equal([]);
  });

  it("no module's route can take another module's requests, whichever is mounted first", () => {
    const owners = routesByModule();
    const clashes: string[] = [];
    for (const a of owners) {
      for (const b of owners) {
        if (a.module === b.module) continue;
        for (const x of a.routes) {
          for (const y of b.routes) {
            if (x.method === y.method && shadows(segments(x.path), segments(y.path)))
              clashes.push(`${a.module} ${x.method.toUpperCase()} ${x.path} would take ${b.module}'s ${y.path}`);
          }
        }
      }
    }
    expect(clashes).to.deep.equal([]);
    expect(owners.flatMap((m) => m.routes)).to.deep.equal(allRoutes());
  });

  it('the check sees a shadowed route', () => {
    expect(shadows(segments('/entry-document/:id'), segments('/entry-document/cfop-rules'))).to.equal(true);
    expect(shadows(segments('/entry-document/cfop-rules'), segments('/entry-document/:id'))).to.equal(false);
    expect(shadows(segments('/sales-order/:id'), segments('/sales-order/list/:filialId'))).to.equal(false);
  });
});
