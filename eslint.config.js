import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'locales/**/*.ts', 'data', 'test-results', 'playwright-report', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'react-hooks/set-state-in-effect': 'off',
    },
  },
  {
    // layer rules of docs/architecture.md
    files: ['machines/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['react', 'react-dom', 'ky', '@tanstack/*', '@fluentui/*', '../src/*', '../../src/*', '../server/*', '../../server/*'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/api/**', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['ky', '**/server/**'] }],
    },
  },
  {
    // Views know resources but do no HTTP: raw requests belong in a typed call of src/api.
    files: ['src/views/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['ky', '**/server/**'] }, {
        group: ['**/api/resources.ts', '**/api/client.ts'],
        importNames: ['getJson', 'sendAction', 'postWithSpm', 'request', 'http'],
        message: 'views do no HTTP themselves: add a typed call to src/api',
      }] }],
    },
  },
  {
    // Generic UI knows no application: the shell (src/shell), the router, the views and the app actor sit above it
    // (docs/architecture.md, issue 29). Test support files may build a themed provider.
    files: ['src/ui/**/*.{ts,tsx}'],
    ignores: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'src/ui/**/testing.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['ky', '**/server/**'] }, {
        regex: '^(\\.\\./)+(app|router|views|shell)(/|$)',
        message: 'src/ui is generic: it imports neither src/app, src/router, src/views nor src/shell (pass what it needs in)',
      }] }],
    },
  },
  {
    // Menus and tooltips load on first use (src/ui/common/overlays.tsx; docs/decisions/menus-tooltips-and-their-parts-load-on-first.md).
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/ui/common/overlays.lazy.ts', 'src/**/*.test.ts', 'src/**/*.test.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: [{
        name: '@fluentui/react-components',
        importNames: ['Menu', 'Tooltip', 'MenuTrigger', 'MenuPopover', 'MenuList', 'MenuItem', 'MenuItemRadio', 'MenuItemLink', 'MenuGroup', 'MenuGroupHeader', 'MenuDivider'],
        allowTypeImports: true,
        message: 'import menus and tooltips from src/ui/common/overlays.tsx (loaded on first use)',
      }] }],
    },
  },
  {
    files: ['server/**/*.ts'],
    // Tests (and their support files) may import the console's crypto to encrypt exactly as the browser does.
    ignores: ['server/**/*.test.ts', 'server/**/test-support.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/src/**', '**/machines/**'] }] },
  },
  {
    // The database is typed by the generated interface (docs/engine.md, "The typed database").
    files: ['server/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "TSTypeReference[typeName.name='Kysely'] > TSTypeParameterInstantiation > TSAnyKeyword",
        message: 'use the typed database: DB (Kysely<Tables>) from server/db/connection.ts',
      }],
    },
  },
)
