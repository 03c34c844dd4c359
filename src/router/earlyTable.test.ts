import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { planEarly } from '../api/earlyPlan.ts'
import { earlyLists, earlyTable } from './earlyTable.ts'
import { startPageData } from './pageData.ts'

const ORG = '00000000-0000-0000-0000-000000000002'

describe('earlyTable', () => {
  it('has the lists whose first reads depend on nothing but the address, and leaves out the others', () => {
    const lists = earlyTable().lists
    expect(lists['/console/users/users']).toEqual(['/api/v1/users/users/', '/api/v1/users/users/?limit={size}&offset=0'])
    expect(lists['/console/users/users/user-acl']?.[1]).toBe('/api/v1/acls/login-acls/?order=priority&limit={size}&offset=0')
    expect(lists['/console/users/roles']).toBeUndefined() // the page picks its URL (pageUrl)
    expect(lists['/audit/sessions/sessions']).toBeUndefined() // a default date range: today's dates
    expect(Object.keys(lists).every((path) => !path.includes(':'))).toBe(true)
  })
})

/** Browsers resolve relative URLs against the page; Node's Request does not, so the test does it. */
const NodeRequest = globalThis.Request
class PageRequest extends NodeRequest {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init)
  }
}

describe('the early requests are the route loader’s requests', () => {
  let asked: string[] = []
  beforeEach(() => {
    asked = []
    vi.stubGlobal('Request', PageRequest)
    vi.stubGlobal('fetch', vi.fn(async (input: Request) => {
      const url = new URL(input.url)
      asked.push(`${input.method} ${url.pathname}${url.search} ${input.headers.get('X-JMS-ORG')}`)
      return new Response('{"count":0,"results":[],"actions":{}}', { status: 200, headers: { 'Content-Type': 'application/json' } })
    }))
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    localStorage.clear()
  })

  it.each(earlyLists().map((l) => [l.path, l.name] as const))('%s', async (path, name) => {
    for (const size of [null, '50']) {
      asked = []
      if (size) localStorage.setItem('paginationSize', size)
      const plan = planEarly({
        pathname: `/ui${path}`, search: '', cookies: `jms_session_expire=1; X-JMS-ORG=${ORG}`, language: 'en', storedPageSize: size,
        config: earlyTable(), assets: undefined,
      })
      const early = plan.requests.filter((r) => r.org !== null).map((r) => `${r.method} ${r.url} ${r.org}`)
      expect(early).toHaveLength(2)
      // A different organization each run keeps the answer cache from serving an earlier run's keys.
      await startPageData({ name, orgId: `${ORG}-${path}-${size}`, params: {}, search: {}, can: () => true })
      expect(asked.map((a) => a.replace(/ \S+$/, ` ${ORG}`)).sort()).toEqual(early.sort())
    }
  })

})
