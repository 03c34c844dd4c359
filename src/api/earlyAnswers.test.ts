import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { http, request } from './client.ts'
import { dropEarly, EARLY_MAX_AGE_MS, takeEarly, type EarlyRecord } from './earlyAnswers.ts'

const ORG = '00000000-0000-0000-0000-000000000002'
const OTHER_ORG = '6f0c7a5e-3b2d-4c1a-9e8f-0a1b2c3d4e5f'
const LIST = '/api/v1/users/users/?limit=15&offset=0'
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
const record = (over: Partial<EarlyRecord> = {}): EarlyRecord => ({ method: 'GET', url: LIST, org: ORG, tz: TZ, answer: Promise.resolve(json(200, { early: true })), ...over })

describe('takeEarly (the adoption rules)', () => {
  it('takes only the very same request: method, path and query, organization header', () => {
    const records = [record(), record({ method: 'OPTIONS', url: '/api/v1/users/users/' })]
    expect(takeEarly(records, { method: 'GET', url: LIST, org: OTHER_ORG, tz: TZ }, 0)).toBeUndefined()
    expect(takeEarly(records, { method: 'GET', url: LIST, org: null, tz: TZ }, 0)).toBeUndefined()
    expect(takeEarly(records, { method: 'GET', url: '/api/v1/users/users/?limit=30&offset=0', org: ORG, tz: TZ }, 0)).toBeUndefined()
    expect(takeEarly(records, { method: 'GET', url: '/api/v1/users/users/?order=name&limit=15&offset=0', org: ORG, tz: TZ }, 0)).toBeUndefined()
    expect(takeEarly(records, { method: 'GET', url: '/api/v1/users/users/', org: ORG, tz: TZ }, 0)).toBeUndefined()
    expect(takeEarly(records, { method: 'GET', url: LIST, org: ORG, tz: 'Asia/Tokyo' }, 0)).toBeUndefined()
    expect(takeEarly(records, { method: 'options', url: '/api/v1/users/users/', org: ORG, tz: TZ }, 0)?.method).toBe('OPTIONS')
    expect(takeEarly(records, { method: 'GET', url: LIST, org: ORG, tz: TZ }, 0)?.url).toBe(LIST)
  })

  it('once', () => {
    const records = [record()]
    expect(takeEarly(records, { method: 'GET', url: LIST, org: ORG, tz: TZ }, 0)).toBeDefined()
    expect(takeEarly(records, { method: 'GET', url: LIST, org: ORG, tz: TZ }, 0)).toBeUndefined()
  })

  it('while fresh: on its way, or arrived at most the maximum age ago', () => {
    const key = { method: 'GET', url: LIST, org: ORG, tz: TZ }
    expect(takeEarly([record()], key, 1e9)).toBeDefined() // still on its way
    expect(takeEarly([record({ arrived: 1000 })], key, 1000 + EARLY_MAX_AGE_MS)).toBeDefined()
    const records = [record({ arrived: 1000 })]
    expect(takeEarly(records, key, 1001 + EARLY_MAX_AGE_MS)).toBeUndefined()
    expect(records).toEqual([]) // stale ones are dropped on the way
  })
})

describe('the client adopts early answers', () => {
  const holder = globalThis as unknown as { __bastionEarly?: EarlyRecord[] }
  let seen: Request[] = []

  beforeEach(() => {
    seen = []
    vi.stubGlobal('fetch', vi.fn(async (input: Request) => {
      if (input.signal.aborted) throw new DOMException('The operation was aborted.', 'AbortError')
      seen.push(input)
      return input.method === 'GET' ? json(200, { asked: true }) : json(201, { id: 1 })
    }))
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    delete holder.__bastionEarly
  })

  const get = (org: string | null = ORG) => http.get(`http://localhost${LIST}`, org ? { headers: { 'X-JMS-ORG': org } } : {}).json()

  it('a success for the same request is the answer, once; the next call goes out', async () => {
    holder.__bastionEarly = [record()]
    expect(await get()).toEqual({ early: true })
    expect(seen).toEqual([])
    expect(await get()).toEqual({ asked: true })
    expect(seen).toHaveLength(1)
  })

  // Remembering the zone for the next visit is timeZone.test.ts's (its storage is injected there: here the
  // client's zone is decided once per worker, and other files clear localStorage).
  it('sends the page’s time zone', async () => {
    await get()
    expect(seen[0]!.headers.get('X-TZ')).toBe(TZ)
  })

  it('an early answer asked in another time zone (a stale remembered one) is not taken', async () => {
    holder.__bastionEarly = [record({ tz: 'Asia/Tokyo' })]
    expect(await get()).toEqual({ asked: true })
  })

  it('a request of another organization is asked the ordinary way (and the early answer stays for its own)', async () => {
    holder.__bastionEarly = [record()]
    expect(await get(OTHER_ORG)).toEqual({ asked: true })
    expect(holder.__bastionEarly).toHaveLength(1)
  })

  it('failures and non-successes are asked again, so errors take the ordinary path', async () => {
    holder.__bastionEarly = [record({ answer: Promise.resolve(json(401, { detail: 'no session' })) })]
    expect(await get()).toEqual({ asked: true })
    holder.__bastionEarly = [record({ answer: Promise.reject(new TypeError('Failed to fetch')) })]
    expect(await get()).toEqual({ asked: true })
    expect(seen).toHaveLength(2)
  })

  it('the start-up GETs without an organization header (request())', async () => {
    holder.__bastionEarly = [record({ url: '/api/v1/settings/public/', org: null, answer: Promise.resolve(json(200, { SECURITY_MFA: true })) })]
    expect(await request('get', 'http://localhost/api/v1/settings/public/')).toEqual({ SECURITY_MFA: true })
    expect(seen).toEqual([])
  })

  it('a successful write drops them all; so does dropEarly()', async () => {
    holder.__bastionEarly = [record()]
    await http.post('http://localhost/api/v1/users/users/', { json: {} })
    expect(await get()).toEqual({ asked: true })
    holder.__bastionEarly = [record()]
    dropEarly()
    expect(await get()).toEqual({ asked: true })
  })

  it('an aborted call stops waiting for the early answer', async () => {
    holder.__bastionEarly = [record({ answer: new Promise<Response>(() => {}) })]
    const controller = new AbortController()
    const call = http.get(`http://localhost${LIST}`, { headers: { 'X-JMS-ORG': ORG }, signal: controller.signal }).json()
    controller.abort()
    await expect(call).rejects.toThrow(/abort/i)
    expect(seen).toEqual([])
  })
})
