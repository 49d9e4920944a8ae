/*
 * Ports: how a module reaches a module that depends on it without importing it (which would close an
 * import circle between the two). The module that needs the work declares the port — an interface and
 * `definePort<It>(name)` — and calls `port.get()`; the module that does the work exports an object of
 * that interface; `src/modules/index.ts` plugs each provider into its port at load time, in one list,
 * so every such seam can be read in one place. docs/architecture.md, "Module seams".
 */

export interface Port<T> {
  /** Plugs the provider in (once; src/modules/index.ts). */
  provide(impl: T): void;
  /** The provider; throws when none was plugged in (a wiring bug, never a request's fault). */
  get(): T;
}

export function definePort<T>(name: string): Port<T> {
  let impl: T | undefined;
  return {
    provide(value) {
      if (impl !== undefined && impl !== value) throw new Error(`Port ${name}: already provided`);
      impl = value;
    },
    get() {
      if (impl === undefined) throw new Error(`Port ${name}: no provider (src/modules/index.ts plugs them in)`);
      return impl;
    },
  };
}
