/**
 * Module boundaries (docs/architecture.md, "Module seams"), checked by tests/core/module-boundaries.test.ts.
 * A module uses another only through its front door (src/modules/<m>/index.ts): the services, small
 * functions, rows and types it offers others, plus its routes for the composition root; its
 * repository, controller and router files are its own. core/ is infrastructure and imports no
 * module. Type-only imports count: a type cycle is still a cycle.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'No import cycle in src/ (type-only imports included).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'modules-through-front-doors',
      severity: 'error',
      comment:
        'A module uses another only through its front door, src/modules/<m>/index.ts: what that module exports for others. Its other files are private (docs/decisions/module-front-doors.md).',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index[.]ts$'] },
    },
    {
      name: 'composition-root-through-front-doors',
      severity: 'error',
      comment:
        'The composition root (the files directly in src/modules: index.ts, metrics.ts; src/app.ts, src/main.ts) and the demo seed reach modules through their front doors too.',
      from: { path: '^src/', pathNot: '^src/(core|modules/[^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index[.]ts$' },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment: "Another module's repository is private: call its service or an exported function.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.*[.]repository[.]ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'no-foreign-edge',
      severity: 'error',
      comment: "Another module's controller and router are its HTTP edge: a module never calls them.",
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/.*[.](controller|router)[.]ts$',
        pathNot: '^src/modules/$1/',
      },
    },
    {
      name: 'core-imports-no-module',
      severity: 'error',
      comment: 'core/ carries no business rules, so it never imports a module.',
      from: { path: '^src/core/' },
      // The filial check core needs is tenancy's, reached through a port (core/auth/tenancy.ts).
      to: { path: '^src/(modules|demo)/' },
    },
    {
      name: 'modules-reach-no-data-source',
      comment:
        'A module reaches the database through the unit of work it is given (ctx.uow, em) or readerOf(ctx), never through the data source (docs/decisions/unit-of-work.md).',
      severity: 'error',
      from: { path: '^src/(modules|demo)/' },
      to: { path: '^src/core/db/data-source[.]ts$' },
    },
    {
      name: 'authority-imports-no-business-module',
      severity: 'error',
      comment:
        'The authority module is the toolkit of the tax authority\'s web services (docs/architecture.md, "The fiscal wing"): it knows no business module — only core and the fiscal-XML toolkit.',
      from: { path: '^src/modules/authority/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/authority/', '^src/modules/fiscal-xml/'] },
    },
    {
      name: 'authority-reaches-no-business-module',
      severity: 'error',
      comment:
        'Nor through another file: whatever the authority module uses, directly or not, is core, its own files or the fiscal-XML toolkit (which imports no module).',
      from: { path: '^src/modules/authority/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/authority/', '^src/modules/fiscal-xml/'], reachable: true },
    },
    {
      name: 'connection-knows-no-inbound-document',
      severity: 'error',
      comment:
        "sefaz (a filial's connection to the authority: certificate, endpoints, settings, issuerTarget) serves emission and the DF-e sync alike, so nothing it uses, directly or not, is the inbound side (docs/decisions/dfe-on-the-inbound-side.md).",
      from: { path: '^src/modules/sefaz/' },
      to: { path: '^src/modules/(inbound-nfe|dfe|entry-document|cte)/', reachable: true },
    },
    {
      name: 'emission-reaches-no-dfe',
      severity: 'error',
      comment:
        'Emission (outbound-nfe, nfce) stands on the connection (sefaz) and the authority toolkit, never on the inbound DF-e business, directly or not (docs/decisions/dfe-on-the-inbound-side.md).',
      from: { path: '^src/modules/(outbound-nfe|nfce)/' },
      to: { path: '^src/modules/dfe/', reachable: true },
    },
    {
      name: 'emission-imports-no-inbound-store',
      severity: 'error',
      comment:
        'Emission (outbound-nfe, nfce) reads an NF-e with the fiscal-xml reader and draws it with danfe; the inbound store (inbound-nfe) is not its to import.',
      from: { path: '^src/modules/(outbound-nfe|nfce)/' },
      to: { path: '^src/modules/inbound-nfe/' },
    },
    {
      name: 'open-items-knows-no-side',
      severity: 'error',
      comment:
        'The open-items kernel (docs/decisions/open-items.md) settles and reverses for both sides; payables and receivables each declare an OpenItemSide and call it, so it imports neither.',
      from: { path: '^src/modules/open-items/' },
      to: { path: '^src/modules/(payables|receivables)/' },
    },
    {
      name: 'emission-kernel-knows-no-kind',
      severity: 'error',
      comment:
        'The emission kernel (docs/decisions/emission-kernel.md) runs the exactly-once loop for both kinds of document; outbound-nfe and nfce each declare their rules and call it, so nothing it uses, directly or not, is either kind.',
      from: { path: '^src/modules/emission/' },
      to: { path: '^src/modules/(outbound-nfe|nfce)/', reachable: true },
    },
    {
      name: 'authority-touches-no-database',
      severity: 'error',
      comment:
        'The authority module has no database: no entity, no repository, no typeorm; of core/db only the guard that refuses a call inside an open transaction (transaction.ts).',
      from: { path: '^src/modules/authority/' },
      to: { path: ['^src/core/db/', '(^|/)node_modules/typeorm/'], pathNot: '^src/core/db/transaction[.]ts$' },
    },
    {
      name: 'modules-import-no-demo',
      severity: 'error',
      comment: 'The demo seed composes modules; no module depends on it.',
      from: { path: '^src/modules/' },
      to: { path: '^src/demo/' },
    },
    {
      name: 'production-imports-no-dev',
      severity: 'error',
      comment:
        'src/dev (the local tax-authority simulator) is development tooling: no module, core or the app imports it; src/main.ts loads it by a dynamic import behind SEFAZ_SIMULATOR (docs/decisions/simulator-outside-production.md).',
      from: { path: '^src/', pathNot: ['^src/dev/', '^src/main[.]ts$'] },
      to: { path: '^src/dev/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|sdk)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
