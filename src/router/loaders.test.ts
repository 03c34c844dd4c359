import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AppActorRef } from '../app/appMachine.ts'
import { routeByName } from './catalog.ts'
import { FIRST_PAGE_WAIT_MS, loaderFor, type RouterContext } from './router.tsx'

const ORG = { id: '00000000-0000-0000-0000-000000000002', name: 'DEFAULT', is_default: true, is_root: false }

/** An app actor that is ready, in the console view, with every permission the users list needs. */
function readyApp(): AppActorRef {
  const viewOrg = { getSnapshot: () => ({ context: { view: 'console', currentOrg: ORG, lastView: 'console' } }) }
  const snapshot = {
    matches: (state: unknown) => state === 'ready',
    context: {
      profile: { id: 'u', username: 'admin', perms: ['users.view_user'], console_orgs: [ORG], audit_orgs: [], workbench_orgs: [], is_first_login: false },
      settings: {},
      hasValidLicense: true,
      lastView: 'console',
    },
    children: { viewOrg },
  }
  return { getSnapshot: () => snapshot } as unknown as AppActorRef
}

/** Browsers resolve relative URLs against the page; Node's Request does not, so the test does it. */
const NodeRequest = globalThis.Request
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
  }
}

describe('a list route’s loader', () => {
  let asked = 0
  beforeEach(() => {
    asked = 0
    vi.stubGlobal('Request', PageRequest)
    // The server never answers: what the loader waits for shows.
    vi.stubGlobal('fetch', vi.fn(() => {
      asked++
      return new Promise<Response>(() => {})
    }))
  })
  afterEach(() => vi.unstubAllGlobals())

  const run = (context: RouterContext, search: Record<string, unknown>) => {
    const loader = loaderFor(routeByName('UserList')!)!
    const done = loader({ context, params: {}, deps: { search }, location: { pathname: '/console/users/users' } }).then(() => 'done')
    return Promise.race([done, new Promise((resolve) => setTimeout(() => resolve('waiting'), FIRST_PAGE_WAIT_MS + 50))])
  }

  it('on the first page of a visit, starts the data and lets the page show after a short wait at most', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout'] })
    try {
      const loader = loaderFor(routeByName('UserList')!)!
      let done = false
      void loader({ context: { app: readyApp(), awaitData: () => false }, params: {}, deps: { search: { search: 'first' } }, location: { pathname: '/console/users/users' } }).then(() => { done = true })
      await vi.advanceTimersByTimeAsync(FIRST_PAGE_WAIT_MS - 1)
      expect(done).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(done).toBe(true)
      expect(asked).toBe(2) // the metadata and the first page
    } finally {
      vi.useRealTimers()
    }
  })

  it('on later navigations, waits for the data (the page left stays meanwhile)', async () => {
    expect(await run({ app: readyApp(), awaitData: () => true }, { search: 'later' })).toBe('waiting')
    expect(await run({ app: readyApp() }, { search: 'later-too' })).toBe('waiting')
  })
})
