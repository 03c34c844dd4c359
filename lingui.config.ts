import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'zh', 'ja'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    // The console. The login page (a separate entry with a 150 KB budget) and the web terminal (`/luna/`) have
    // their own small catalogues.
    {
      path: '<rootDir>/locales/{locale}',
      include: ['<rootDir>/src', '<rootDir>/machines'],
      exclude: ['**/src/login/**', '**/src/luna/**', '**/*.test.ts', '**/*.test.tsx'],
    },
    { path: '<rootDir>/locales/login/{locale}', include: ['<rootDir>/src/login', '<rootDir>/src/api'], exclude: ['**/*.test.ts', '**/*.test.tsx'] },
    {
      path: '<rootDir>/locales/luna/{locale}',
      include: ['<rootDir>/src/luna', '<rootDir>/src/api', '<rootDir>/src/ui/terminal', '<rootDir>/src/ui/tree/LazyTree.tsx', '<rootDir>/src/ui/common/errors.ts', '<rootDir>/src/ui/inspector'],
      exclude: ['**/*.test.ts', '**/*.test.tsx'],
    },
  ],
  format: formatter({ lineNumbers: false }),
  compileNamespace: 'ts',
})
