import '@testing-library/jest-dom/vitest'
import { cleanup, configure } from '@testing-library/react'
import { afterEach } from 'vitest'

// One jsdom per worker across files (vite.config.ts, `isolate: false`): each test leaves the document and the
// address as it found them, so no test sees another file's page (a login test's `?mfa=1` once changed where a
// confirm dialog test's re-login went).
// (Machine tests run in Node, without a window.)
const startAddress = typeof window === 'undefined' ? undefined : window.location.href

// findBy*/waitFor give up after 1 s by default. A first use that imports a lazy chunk (Fluent's menus on the first
// open, src/ui/common/overlays.tsx) took longer than that on CI's loaded 2-core machine: a cap, not a speed assertion.
configure({ asyncUtilTimeout: 10_000 })

afterEach(() => {
  cleanup()
  if (startAddress && window.location.href !== startAddress) window.history.replaceState(null, '', startAddress)
})
