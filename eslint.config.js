// Lint with zero warnings (STYLE.md #16); type-aware rules stay off to keep `npm test` fast,
// the type check itself runs as `npm run typecheck`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import i18next from 'eslint-plugin-i18next';

// Server modules, lowest first (docs/architecture.md "Module order"): a module imports only the
// modules below it, so there are no folder cycles; `wiring`, the composition, may import any.
// Other modules reach accounting only through its facade accounting.service.ts (issue 11 §3).
const SERVER_MODULE_ORDER = ['audit', 'action-log', 'meta', 'jobs', 'messaging', 'accounting', 'companies', 'instances', 'identity', 'auth', 'invoicing', 'dunning', 'payables', 'salary', 'banking', 'analytics', 'search'];
// Texts shown to people go through i18next (issue 17 §3, decision 032): JSX text and the
// attributes people read or hear, in every folder of the web app.
const i18nLiteralRule = {
  files: ['apps/web/src/**/*.tsx'],
  ignores: ['apps/web/src/**/*.test.tsx'],
  plugins: { i18next },
  rules: {
    'i18next/no-literal-string': ['error', {
      mode: 'jsx-only',
      'jsx-attributes': { include: ['^(label|placeholder|title|aria-label|description|alt|error|tooltip|message|confirmLabel|cancelLabel|emptyText|hint)$'] },
      // Codes, symbols, amounts and punctuation are not words to translate. The plugin compiles these
      // patterns without the u flag, so symbols are listed rather than named by \p{…} classes.
      words: { exclude: ['^[\\s0-9!-/:-@\\[-`{-~·•—–←→↑↓…“”„«»‘’×÷§°±€£¥]*$', '^[A-Z0-9_\\-/.:#%+ ]+$', '^(CHF|EUR|IBAN|QR-IBAN|BIC|UID|MWST|TVA|IVA|VAT|PDF|XML|CSV|XLSX|ISO 20022|camt\\.05[34]|pain\\.00[12]|e-mail|E-mail|Bilan)$'] },
    }],
  },
};

const serverModuleZones = SERVER_MODULE_ORDER.map((module, index) => {
  const above = [...SERVER_MODULE_ORDER.slice(index + 1), 'wiring'];
  const patterns = [{ regex: `^\\.\\./(${above.join('|')})/`, message: `${module} may import only the modules below it (${SERVER_MODULE_ORDER.slice(0, index).join(', ') || 'none'}): see docs/architecture.md "Module order".` }];
  if (module !== 'accounting') {
    patterns.push({ regex: '^\\.\\./accounting/(?!accounting\\.service\\.js$)', message: "Other modules use accounting's facade accounting.service.ts only." });
  }
  return { files: [`apps/server/src/modules/${module}/**/*.ts`], rules: { 'no-restricted-imports': ['error', { patterns }] } };
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'e2e/test-results/**', 'e2e/playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='parseFloat']", message: 'Money is never a binary float: use Decimal (packages/domain/src/money.ts).' },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Tests read JSON answers of many shapes; typing each one would only restate the schemas.
    files: ['**/test/**/*.ts', '**/*.test.ts', 'e2e/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // packages/domain is pure: no Node, no database, no React (STYLE.md "Our own rules of thumb").
    files: ['packages/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'pg', '@electric-sql/*', 'react', 'react-*', 'fastify*'] }],
    },
  },
  {
    // The web never imports the server.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@bilan/server', '**/apps/server/**', 'node:*'] }] },
  },
  {
    // Rules of hooks and the React Compiler's checks (purity, refs, effects) for the web app.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Imports flow shared (config, lib, ui) → features → routes/app; features never import each
    // other (STYLE.md #10, bulletproof-react's import zones). Repeats the server ban: the rule's
    // options replace, not merge.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@bilan/server', '**/apps/server/**', 'node:*'], message: 'The web never imports the server or Node.' },
            { regex: '^\\.\\./(?!\\.\\./)', message: 'Features never import each other: move shared code to src/lib or src/ui.' },
            { regex: '(^|/)(app|routes)/', message: 'Features do not import the app layer or route modules.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/{config,lib,ui}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@bilan/server', '**/apps/server/**', 'node:*'], message: 'The web never imports the server or Node.' },
            { regex: '(^|/)(features|app|routes)/', message: 'Shared code (config, lib, ui) never imports features, routes or the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/wiring/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./accounting/(?!accounting\\.service\\.js$)', message: "Other modules use accounting's facade accounting.service.ts only." }] }] },
  },
  i18nLiteralRule,
  {
    // Web unit tests run in Node and may read the sources (the i18n catalog test).
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-imports': 'off' },
  },
  ...serverModuleZones,
);
