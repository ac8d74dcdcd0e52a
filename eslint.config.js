import js from '@eslint/js';
import globals from 'globals';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**', 'bench/results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': 'off',
    },
  },
  {
    // The web app runs in the browser and follows the rules of hooks.
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // Import boundaries: the shared contracts never depend on an app, and the web never on the server.
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/apps/**', '@bloodbank/server*', '@bloodbank/web*'] }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**', '@bloodbank/server*'] }],
    },
  },
  // A feature never imports another feature (ARCHITECTURE.md, convention 10; bulletproof-react's
  // zones): what two features share lives in components/, lib/ or app/, and app/ composes them.
  ...['admin', 'auth', 'donor', 'home', 'patient'].flatMap((feature) =>
    [
      // A file at the feature's root reaches its siblings with ../, one in a folder with ../../.
      { files: [`apps/web/src/features/${feature}/*.{ts,tsx}`], up: ['../*'] },
      { files: [`apps/web/src/features/${feature}/*/**/*.{ts,tsx}`], up: ['../../*', '../../../*'] },
    ].map(({ files, up }) => ({
      files,
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { group: ['**/server/**', '@bloodbank/server*'], message: 'The web app never imports the server.' },
              {
                group: ['@/features/*', `!@/features/${feature}`, ...up],
                message: `A feature does not import another feature: move what ${feature} needs to components/, lib/ or app/.`,
              },
            ],
          },
        ],
      },
    })),
  ),
  {
    // No import cycles in the server or the shared contracts: a module that needs one of its importers
    // belongs with it, or the piece both need belongs in a third module.
    files: ['apps/server/src/**/*.ts', 'packages/shared/src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
      'import/parsers': { '@typescript-eslint/parser': ['.ts'] },
    },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/web/**', '@bloodbank/web*'] }],
      // The work given to a write runs in its transaction: a query on ctx.db there would run outside
      // it (PostgreSQL), or wait for the connection the write holds, and stall every write (SQLite).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='run'][callee.object.property.name='writes'] MemberExpression[object.name='ctx'][property.name='db']",
          message: 'Inside ctx.writes.run, use the transaction it gives the work, never ctx.db.',
        },
      ],
    },
  },
);
