import { afterEach, describe, expect, it } from 'vitest'
import { detectLocale, LANGUAGE_COOKIE } from '../app/i18n.ts'
import { SESSION_MARK_COOKIE } from '../../machines/index.ts'
import { cookieValue, guessLocale, guessPageSize, OPEN, planEarly, routerPathOf, SESSION_MARK, SIGNED_IN, type EarlyConfig, type EarlyInput } from './earlyPlan.ts'

const ORG = '00000000-0000-0000-0000-000000000002'
const OTHER_ORG = '6f0c7a5e-3b2d-4c1a-9e8f-0a1b2c3d4e5f'

const config: EarlyConfig = {
  lists: { '/console/users/users': ['/api/v1/users/users/', '/api/v1/users/users/?limit={size}&offset=0'] },
  pageSize: { key: 'paginationSize', sizes: [15, 30, 50, 100], fallback: 15 },
  org: { cookie: 'X-JMS-ORG', fallback: ORG },
  locale: { cookie: 'django_language', known: ['zh', 'en', 'ja'], fallback: 'zh' },
  timeZoneKey: 'bastionTimeZone',
}
const assets = {
  catalogues: { en: '/ui/assets/en-1.js', zh: '/ui/assets/zh-1.js', ja: '/ui/assets/ja-1.js' },
  list: ['/ui/assets/list-1.js'],
  pages: { '/console/users/users': ['/ui/assets/UserListPage-1.js', '/ui/assets/list-1.js', '/ui/assets/resource-1.js'] },
}

function input(over: Partial<EarlyInput> = {}): EarlyInput {
  return {
    pathname: '/ui/console/users/users',
    search: '',
    cookies: `${SESSION_MARK}=1234; django_language=en`,
    language: 'en-US',
    storedPageSize: null,
    config,
    assets,
    ...over,
  }
}

describe('planEarly', () => {
  it('the session mark cookie is the start-up machine’s', () => {
    expect(SESSION_MARK).toBe(SESSION_MARK_COOKIE)
  })

  it('a signed-in first visit of a list: start-up GETs, the list’s OPTIONS and first page, its code and catalogue', () => {
    const plan = planEarly(input({ cookies: `${SESSION_MARK}=1234; django_language=en; X-JMS-ORG=${OTHER_ORG}` }))
    expect(plan.requests).toEqual([
      ...SIGNED_IN.map((url) => ({ method: 'GET', url, org: null })),
      { method: 'OPTIONS', url: '/api/v1/users/users/', org: OTHER_ORG },
      { method: 'GET', url: '/api/v1/users/users/?limit=15&offset=0', org: OTHER_ORG },
    ])
    expect(plan.preloads).toEqual(['/ui/assets/en-1.js', '/ui/assets/UserListPage-1.js', '/ui/assets/list-1.js', '/ui/assets/resource-1.js'])
  })

  it('not signed in: only the open settings, no list calls (the code is still preloaded)', () => {
    const plan = planEarly(input({ cookies: 'django_language=en' }))
    expect(plan.requests).toEqual(OPEN.map((url) => ({ method: 'GET', url, org: null })))
    expect(plan.preloads).toContain('/ui/assets/list-1.js')
    // an empty mark is no session either (the start-up machine's hasSessionMark)
    expect(planEarly(input({ cookies: `${SESSION_MARK}=` })).requests).toHaveLength(OPEN.length)
  })

  it('any list state in the address leaves the list to its loader; `oid` alone picks the organization', () => {
    for (const search of ['?page=2', '?search=bob', '?is_active=false', '?order=name', '?size=30']) {
      expect(planEarly(input({ search })).requests.map((r) => r.method + r.url)).toEqual(SIGNED_IN.map((u) => `GET${u}`))
    }
    const plan = planEarly(input({ search: `?oid=${OTHER_ORG}` }))
    expect(plan.requests.every((r) => r.org === OTHER_ORG)).toBe(true)
    expect(plan.requests.at(-1)!.url).toBe('/api/v1/users/users/?limit=15&offset=0')
  })

  it('guesses the organization: the cookie when it is an id, else the default', () => {
    const org = (cookies: string) => planEarly(input({ cookies: `${SESSION_MARK}=1; ${cookies}` })).requests.at(-1)!.org
    expect(org(`X-JMS-ORG=${OTHER_ORG}`)).toBe(OTHER_ORG)
    expect(org('X-JMS-ORG=not-an-id')).toBe(ORG)
    expect(org('')).toBe(ORG)
  })

  it('uses the remembered page size when it is one the table offers', () => {
    expect(planEarly(input({ storedPageSize: '50' })).requests.at(-1)!.url).toBe('/api/v1/users/users/?limit=50&offset=0')
    expect(planEarly(input({ storedPageSize: '7' })).requests.at(-1)!.url).toBe('/api/v1/users/users/?limit=15&offset=0')
    expect(guessPageSize(config.pageSize, null)).toBe(15)
  })

  it('other pages: start-up calls and the catalogue only; a trailing slash is the same page', () => {
    const dashboard = planEarly(input({ pathname: '/ui/console/dashboard' }))
    expect(dashboard.requests).toHaveLength(SIGNED_IN.length)
    expect(dashboard.preloads).toEqual(['/ui/assets/en-1.js'])
    expect(planEarly(input({ pathname: '/ui/console/users/users/' })).requests).toHaveLength(SIGNED_IN.length + 2)
  })

  it('without the build’s table (development, tests): the start-up calls only', () => {
    expect(planEarly(input({ config: undefined }))).toEqual({ requests: SIGNED_IN.map((url) => ({ method: 'GET', url, org: null })), preloads: [] })
  })
})

describe('early guesses agree with the console', () => {
  afterEach(() => {
    document.cookie = `${LANGUAGE_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  })

  it.each([['ja'], ['zh-hans'], ['en'], ['xx'], [undefined]])('language cookie %s → the catalogue detectLocale loads', (value) => {
    if (value) document.cookie = `${LANGUAGE_COOKIE}=${value}; path=/`
    expect(guessLocale(config.locale, document.cookie, navigator.language)).toBe(detectLocale())
  })

  it('reads cookies as js-cookie does', () => {
    expect(cookieValue('a=1; b=x%20y; c=', 'b')).toBe('x y')
    expect(cookieValue('a=1', 'b')).toBeUndefined()
    expect(routerPathOf('/ui')).toBe('/')
    expect(routerPathOf('/ui/console/users/users/')).toBe('/console/users/users')
  })
})
