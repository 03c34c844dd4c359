/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'
import babel from '@rolldown/plugin-babel'
import { lingui } from '@lingui/vite-plugin'
import { earlyStart, firstScreenGroups, xtermGroup, lightThemeAtBuild, precompress, thenBuildLogin } from './scripts/vite-plugins.ts'
import { griffelExtract, inlineTokensPlugin } from './scripts/griffel-extract.ts'
import { iconImportsByFamily } from './scripts/icon-imports.ts'

/**
 * `vite build` builds the console, then the login page and the web terminal (`/luna/`) apart, each its own entry
 * with its own chunks (scripts/vite-plugins.ts, thenBuildLogin).
 */
const apart = process.env.BASTION_BUILD === 'login' || process.env.BASTION_BUILD === 'luna' ? process.env.BASTION_BUILD : undefined

/**
 * Modules with no side effects on import, so a module none of whose exports are used is dropped: the machines are
 * pure by the layer rule, but `setup().createMachine()` at module level looks like a call with effects, and the
 * `machines/index.ts` barrel would otherwise put every machine (confirm, import, export…) into the first screen.
 */
const pureModules = [{ test: /[\\/]machines[\\/]/, sideEffects: false }]

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080'

export default defineConfig({
  base: '/ui/',
  plugins: [
    iconImportsByFamily(), react(), babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }), lingui(),
    earlyStart(), lightThemeAtBuild(), griffelExtract(), inlineTokensPlugin(), thenBuildLogin(import.meta.filename), precompress(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: !apart,
    chunkSizeWarningLimit: 1200,
    rolldownOptions: apart
      ? {
          input: { [apart]: `${apart}.html` },
          treeshake: { moduleSideEffects: pureModules },
          // the web terminal's xterm: the same chunk file as the console's (scripts/vite-plugins.ts, xtermGroup)
          output: { charset: 'ascii', ...(apart === 'luna' ? { codeSplitting: { groups: [xtermGroup] } } : {}) },
        }
      : {
          input: { main: 'index.html' },
          treeshake: { moduleSideEffects: pureModules },
          // The first screen in few requests (docs/architecture.md, "First visit"): what the console's entry
          // imports statically is one chunk; lazy pages keep their own chunks. ASCII only: one character outside
          // Latin-1 makes Chromium decode and scan the whole script as UTF-16 (docs/decisions/scripts-are-ascii.md).
          output: { codeSplitting: { groups: firstScreenGroups }, charset: 'ascii' },
        },
  },
  server: {
    proxy: {
      '/api': backend,
      '/core': backend,
      '/static': backend,
      '/media': backend,
      '/ws': { target: backend.replace(/^http/, 'ws'), ws: true },
    },
  },
  test: {
    // Vitest's default in a run is one worker less than the cores: a single worker on CI's 2 cores, which leaves a
    // core idle while a test waits on PostgreSQL, sshd or slapd. Two at least (docs/running.md has the figures).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'web',
          environment: 'jsdom',
          setupFiles: ['./src/test-setup.ts'],
          // One jsdom and one module cache per worker across files (the setup file cleans the DOM after each
          // test): half the CPU time of isolating every file, measured in docs/running.md.
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}', 'machines/**/*.test.ts'],
          // Vitest empties stylesheets; the build-time light theme's is kept, for the test that reads it back
          // (src/app/theme.test.ts).
          css: { include: [/virtual:bastion\/light-theme\.css/] },
          // jsdom + Fluent renders are slow on CI's 2 cores under a parallel run; a cap, not a speed assertion.
          testTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          // One module cache per worker across test files: each file builds its own app on its own database, and
          // importing the server again for every file cost half of this project's time. Tests that swap a
          // module-level hook put back what was there (server/resources/assets/net.test.ts).
          isolate: false,
          // a cap, not a speed assertion: the permission matrix of one resource is ~17 s alone and was cut at 60 s
          // in a full run on a loaded machine
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
