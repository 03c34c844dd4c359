import { i18n } from '@lingui/core'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ApiError, errorText, genericMessage, http, messageFor, onApiActivity, request, setErrorNotifier, setUnauthorizedHandler, silent, toApiError,
} from './client.ts'

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} })
})

describe('errorText (spec 000 §8)', () => {
  it.each<[string, unknown, string]>([
    ['error first', { error: 'E', msg: 'M', detail: 'D' }, 'E'],
    ['then msg', { msg: 'M', detail: 'D' }, 'M'],
    ['then detail', { detail: 'D', non_field_errors: ['x'] }, 'D'],
    ['non_field_errors joined by a space', { non_field_errors: ['One.', 'Two.'] }, 'One. Two.'],
    ['arrays recurse, joined by "; "', ['Account already exists', { detail: 'Nope' }], 'Account already exists; Nope'],
    ['bulk answers skip good items', [{}, { error: 'bad row' }, {}], 'bad row'],
    ['nested arrays', [['a', 'b'], 'c'], 'a; b; c'],
    ['a bare string', 'Succeed: Match 12 s user', 'Succeed: Match 12 s user'],
    ['HTML pages are not text', '<!doctype html><p>oops</p>', ''],
    ['field errors only', { name: ['This field is required.'] }, ''],
    ['empty', undefined, ''],
    ['empty error falls through', { error: '', detail: 'D' }, 'D'],
  ])('%s', (_label, data, expected) => {
    expect(errorText(data)).toBe(expected)
  })
})

describe('messageFor', () => {
  it('prefers the server text, except for server errors', () => {
    expect(messageFor(403, { detail: 'Custom refusal' })).toBe('Custom refusal')
    expect(messageFor(500, { detail: 'Unexpect error occur' })).toBe(genericMessage(500))
    expect(messageFor(502, '<html>bad gateway</html>')).toBe(genericMessage(500))
  })
  it.each([
    [400, 'Request error, please check what you filled in'],
    [403, 'Request error, you have no permission for this operation'],
    [404, 'The resource was not found or has been deleted'],
    [409, 'The resource is being updated, please try again later'],
    [500, 'Server error, please try again later'],
    [418, 'Request failed'],
  ])('falls back to the generic message of %i', (status, text) => {
    expect(messageFor(status, { name: ['x'] })).toBe(text)
  })
  it('has messages for network failures and time-outs', () => {
    expect(genericMessage(0, 'network')).toMatch(/network/)
    expect(genericMessage(0, 'timeout')).toMatch(/timed out/)
  })
})

describe('http hooks', () => {
  const notified: ApiError[] = []
  const unauthorized: string[] = []
  let answer: (req: Request) => Response
  let seen: Request[] = []

  beforeEach(() => {
    notified.length = 0
    unauthorized.length = 0
    seen = []
    setErrorNotifier((e) => notified.push(e))
    setUnauthorizedHandler((_e, url) => unauthorized.push(url))
    vi.stubGlobal('fetch', vi.fn(async (input: Request) => {
      seen.push(input)
      return answer(input)
    }))
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    setErrorNotifier(() => {})
    setUnauthorizedHandler(() => {})
  })
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

  it('toasts failures with the extracted text, unless silent', async () => {
    answer = () => json(400, { detail: 'Bad thing' })
    await expect(request('get', 'http://localhost/api/v1/x/')).rejects.toMatchObject({ status: 400, message: 'Bad thing', data: { detail: 'Bad thing' } })
    expect(notified.map((e) => e.message)).toEqual(['Bad thing'])
    await expect(request('get', 'http://localhost/api/v1/x/', silent())).rejects.toBeInstanceOf(ApiError)
    expect(notified).toHaveLength(1)
  })

  it('sends 401s to the re-login handler, never to the toast', async () => {
    answer = () => json(401, { detail: 'Authentication credentials were not provided.' })
    await expect(request('get', 'http://localhost/api/v1/users/users/', silent())).rejects.toMatchObject({ status: 401 })
    expect(unauthorized).toEqual(['http://localhost/api/v1/users/users/'])
    expect(notified).toEqual([])
  })

  it('reports activity for successful answers other than the profile', async () => {
    const seenActivity: number[] = []
    const stop = onApiActivity(() => seenActivity.push(1))
    answer = () => json(200, { ok: true })
    expect(await request('get', 'http://localhost/api/v1/assets/assets/')).toEqual({ ok: true })
    await request('get', 'http://localhost/api/v1/users/profile/')
    stop()
    await request('get', 'http://localhost/api/v1/assets/assets/')
    expect(seenActivity).toHaveLength(1)
  })

  it('sends the time zone header and returns undefined for empty answers', async () => {
    answer = () => new Response(null, { status: 204 })
    expect(await request('delete', 'http://localhost/api/v1/x/1/')).toBeUndefined()
    expect(seen[0]!.headers.get('X-TZ')).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone)
  })

  it('sends the CSRF token with changes only (Django checks no other method)', async () => {
    document.cookie = 'SESSION_COOKIE_NAME_PREFIX=jms_; path=/'
    document.cookie = 'jms_csrftoken=csrf-hooks; path=/'
    try {
      answer = () => json(200, {})
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) await request(method, 'http://localhost/api/v1/x/')
      await http('http://localhost/api/v1/x/', { method: 'options' })
      expect(seen.map((r) => [r.method, r.headers.get('X-CSRFToken')])).toEqual([
        ['GET', null], ['POST', 'csrf-hooks'], ['PUT', 'csrf-hooks'], ['PATCH', 'csrf-hooks'], ['DELETE', 'csrf-hooks'], ['OPTIONS', null],
      ])
    } finally {
      document.cookie = 'jms_csrftoken=; path=/; max-age=0'
      document.cookie = 'SESSION_COOKIE_NAME_PREFIX=; path=/; max-age=0'
    }
  })

  it('turns network failures into toasted ApiErrors', async () => {
    answer = () => {
      throw new TypeError('Failed to fetch')
    }
    await expect(request('get', 'http://localhost/api/v1/x/')).rejects.toMatchObject({ status: 0, kind: 'network' })
    expect(notified.map((e) => e.kind)).toEqual(['network'])
  })

  it('converts ky errors for callers of `http`', async () => {
    answer = () => json(404, { detail: 'User object does not exist.', code: 'object_does_not_exist' })
    const error = await http.get('http://localhost/api/v1/users/users/1/').catch(toApiError)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe('object_does_not_exist')
    expect((error as ApiError).message).toBe('User object does not exist.')
  })

  it('exposes field errors of a 400', async () => {
    answer = () => json(400, { name: ['This field is required.'] })
    const error = (await request('post', 'http://localhost/api/v1/x/', silent({ json: {} })).catch((e) => e)) as ApiError
    expect(error.fieldErrors).toEqual({ name: ['This field is required.'] })
    expect(error.message).toBe('Request error, please check what you filled in')
  })
})
