/**
 * The usual set-up of a server test file in one call: a fresh server (createTestServer) before the tests, an
 * admin client speaking English, and the server closed after them.
 *
 *   const s = useTestServer()
 *   it('…', async () => { await s.admin.get('/api/v1/users/users/') })
 */
import { afterAll, beforeAll } from 'vitest'
import type { ServerConfig } from './config.ts'
import { createTestServer, type TestClient, type TestServer } from './testing.ts'

export interface UsedTestServer {
  /** The server (valid inside tests and hooks). */
  readonly t: TestServer
  /** The admin user's client, `accept-language: en`. */
  readonly admin: TestClient
}

export function useTestServer(overrides: Partial<ServerConfig> = {}, setup?: (s: UsedTestServer) => Promise<void>): UsedTestServer {
  let t: TestServer | undefined
  let admin: TestClient | undefined
  const used: UsedTestServer = {
    get t() { if (!t) throw new Error('the test server is not started yet'); return t },
    get admin() { if (!admin) throw new Error('the test server is not started yet'); return admin },
  }
  beforeAll(async () => {
    t = await createTestServer(overrides)
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
    await setup?.(used)
  })
  afterAll(async () => { await t?.close() })
  return used
}
