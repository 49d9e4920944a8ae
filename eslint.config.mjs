// Lint: typescript-eslint's recommended rules with type information (`recommendedTypeChecked`) over
// the service, its tests, scripts, benchmarks and migrations. Layout is prettier's job
// (`.prettierrc.json`); `npm run lint` runs eslint and `prettier --check`, `npm run format` writes.
// Rules the codebase departs from on purpose are switched off or narrowed below, each with its reason;
// a one-off departure carries an `eslint-disable-next-line <rule> -- <reason>` where it happens, and a
// disable comment that no longer suppresses anything is itself an error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  ['require', 'module', 'exports', '__dirname', '__filename', 'process', 'console', 'Buffer', 'setTimeout', 'clearTimeout'].map((g) => [
    g,
    'readonly',
  ]),
);

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'sdk/', 'data/', 'bench/out/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a parameter or binding kept on purpose (a handler's signature, a
      // destructured key left out of the rest: `const { id: _id, ...rest } = row`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // `async` on a function that awaits nothing is kept where it implements a Promise-returning
      // contract (ports, express handlers, `stop()` methods): a throw then becomes a rejection.
      '@typescript-eslint/require-await': 'off',
      // The data layer casts rows into TypeORM's insert/update parameter types (`row as never`) on
      // purpose; the rule reads those casts as no-ops. 140 one-token edits across files every branch
      // touches: turn it on in a quiet week with `npx eslint --fix --rule '{"@typescript-eslint/no-unnecessary-type-assertion":"error"}' .`
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // `let x = fallback; try { x = risky() } catch { … }` keeps the fallback visible where it applies;
      // the rule reads that first value as dead whenever every path reassigns it.
      'no-useless-assignment': 'off',
      // `String(value)` is how parsed XML text nodes, JSON input and CSV cells (typed `unknown`) become
      // text; the layout readers and schemas have refused objects before that point.
      '@typescript-eslint/no-base-to-string': 'off',
    },
  },
  {
    // These files read joi's untyped results (`describe()` trees, `validate().value`) and TypeORM's raw
    // query rows, which the libraries type as `any`; each reading is checked by the schema it walks.
    files: ['src/core/config/**', 'src/core/openapi/**', 'src/core/http/validate.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Tests, benchmarks and scripts read HTTP bodies (supertest types them `any`) and raw rows; the suite
    // checks every body against the OpenAPI response schemas at run time instead.
    files: ['tests/**', 'tests-galera/**', 'bench/**', 'scripts/**', 'migrations/**'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      // Tests read methods off objects to check they exist or to wrap them.
      '@typescript-eslint/unbound-method': 'off',
      // chai's property assertions (`expect(x).to.be.true`) are expressions by design.
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
  {
    // CommonJS helpers mocha loads before ts-node (tests/env.js, the transpile cache).
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, sourceType: 'commonjs', globals: nodeGlobals },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
);
