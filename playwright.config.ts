import { defineConfig } from '@playwright/test'

// End-to-end tests run real Chromium (Debian's) against the real server. There is no webServer and no global
// set-up: each worker starts its own server on a fresh embedded database (the `server` worker fixture of
// tests/e2e/fixtures.ts, on port E2E_PORT + worker index). `npm test` builds the console before Playwright starts.
// Two workers suit CI's 2-core machine (docs/running.md has the figures); E2E_WORKERS overrides it.
export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: 0,
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    // the width the console is designed and checked at (issue 35: lists choose their columns for the width)
    viewport: { width: 1440, height: 900 },
    locale: 'en-US',
    timezoneId: 'Asia/Shanghai',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      // Chromium 156 loads two omnibox pop-up UIs (hundreds of modules, in renderers of their own) into every new
      // window, that is every test's context: seconds of CPU per test on CI's two cores. A headless test never
      // opens the omnibox.
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
})
