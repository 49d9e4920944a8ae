/* Test helpers a bench reuses register mocha hooks at load (tests/sefaz/support.ts); outside mocha they have nothing to hook. */
const g = globalThis as Record<string, unknown>;
for (const hook of ['before', 'after', 'beforeEach', 'afterEach']) g[hook] ??= () => undefined;
export {};
