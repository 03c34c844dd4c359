import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { activateEnglish, fakeFetch, json } from '../ui/common/testing.ts'
import {
  actionUrl, bulkDelete, bulkPatch, createResource, detailUrl, getOperateLogDiff, listActivities, listAll, listResources, parseListAnswer,
  parseServerDateTime, ApiError, retrieveResource, withQuery,
} from './resources.ts'

beforeEach(() => activateEnglish())
afterEach(() => vi.unstubAllGlobals())

describe('URLs', () => {
  it('withQuery merges into an existing query and skips empty values', () => {
    expect(withQuery('/api/v1/acls/login-acls/?user=u1', { limit: 15, offset: 0, search: '', order: undefined })).toBe('/api/v1/acls/login-acls/?user=u1&limit=15&offset=0')
    expect(withQuery('/api/v1/users/users/')).toBe('/api/v1/users/users/')
  })
  it('actionUrl builds list and detail actions', () => {
    expect(actionUrl('/api/v1/users/users/', 'u1', 'password/reset')).toBe('/api/v1/users/users/u1/password/reset/')
    expect(actionUrl('/api/v1/users/users/', undefined, 'remove')).toBe('/api/v1/users/users/remove/')
  })
  it('detailUrl keeps the list query', () => {
    expect(detailUrl('/api/v1/acls/login-acls/?user=u1', 'a b')).toBe('/api/v1/acls/login-acls/a%20b/?user=u1')
    expect(detailUrl('/api/v1/assets/platforms', 3)).toBe('/api/v1/assets/platforms/3/')
  })
})

describe('parseListAnswer', () => {
  it('reads paginated and bare answers', () => {
    expect(parseListAnswer({ count: 40, next: 'http://x/?offset=15', results: [{ id: 'a' }, 5] })).toEqual({ count: 40, next: 'http://x/?offset=15', results: [{ id: 'a' }] })
    expect(parseListAnswer([{ id: 1 }, { pk: 2, name: 'x' }])).toEqual({ count: 2, next: null, results: [{ id: 1 }, { pk: 2, name: 'x', id: 2 }] })
  })
  it('rejects anything else', () => {
    expect(() => parseListAnswer({ detail: 'x' })).toThrow(ApiError)
  })
})

describe('calls', () => {
  it('lists with query parameters', async () => {
    const sent = fakeFetch({ 'GET /api/v1/users/users/': () => ({ count: 1, next: null, results: [{ id: 'u1' }] }) })
    const page = await listResources('/api/v1/users/users/', { limit: 15, offset: 30, order: '-date_updated' })
    expect(page.count).toBe(1)
    expect(Object.fromEntries(sent[0]!.url.searchParams)).toEqual({ limit: '15', offset: '30', order: '-date_updated' })
  })

  it('listAll pages until next is empty', async () => {
    const sent = fakeFetch({
      'GET /api/v1/users/users/': (req) => {
        const offset = Number(req.url.searchParams.get('offset'))
        return { count: 3, next: offset === 0 ? 'more' : null, results: offset === 0 ? [{ id: 1 }, { id: 2 }] : [{ id: 3 }] }
      },
    })
    const rows = await listAll('/api/v1/users/users/', { spm: 's' }, { pageSize: 2 })
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3])
    expect(sent.map((s) => s.url.search)).toEqual(['?spm=s&limit=2&offset=0', '?spm=s&limit=2&offset=2'])
  })

  it('maps HTTP failures to ApiError with the body', async () => {
    fakeFetch({ 'GET /api/v1/users/users/x/': () => json(404, { detail: 'User object does not exist.' }) })
    const error = await retrieveResource('/api/v1/users/users/', 'x').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 404, data: { detail: 'User object does not exist.' } })
  })

  it('creates with clone_from', async () => {
    const sent = fakeFetch({ 'POST /api/v1/rbac/roles/': () => json(201, { id: 'r2', name: 'copy' }) })
    const row = await createResource('/api/v1/rbac/roles/', { name: 'copy' }, { cloneFrom: 'r1' })
    expect(row).toEqual({ id: 'r2', name: 'copy' })
    expect(sent[0]!.url.search).toBe('?clone_from=r1')
    expect(sent[0]!.body).toEqual({ name: 'copy' })
  })

  it('bulk delete caches the ids then deletes by spm', async () => {
    const sent = fakeFetch({
      'POST /api/v1/common/resources/cache/': () => ({ spm: 'spm-1' }),
      'DELETE /api/v1/users/groups/': () => new Response(null, { status: 204 }),
    })
    await bulkDelete('/api/v1/users/groups/', ['a', 'b'])
    expect(sent.map((s) => `${s.method} ${s.url.pathname}${s.url.search}`)).toEqual(['POST /api/v1/common/resources/cache/', 'DELETE /api/v1/users/groups/?spm=spm-1'])
    expect(sent[0]!.body).toEqual({ resources: ['a', 'b'] })
  })

  it('bulk patch sends the item array and surfaces the aligned error array', async () => {
    fakeFetch({ 'PATCH /api/v1/users/users/': () => json(400, [{}, { email: ['Enter a valid email address.'] }]) })
    const error = await bulkPatch('/api/v1/users/users/', [{ id: 'a', email: 'a@x.io' }, { id: 'b', email: 'bad' }]).catch((e: unknown) => e)
    expect(error).toMatchObject({ status: 400, data: [{}, { email: ['Enter a valid email address.'] }] })
  })

  it('reads activities and operate-log diffs', async () => {
    fakeFetch({
      'GET /api/v1/audits/activities/': () => [{ id: 'a1', timestamp: '2023-05-09 14:36:56', r_type: 'O', content: 'Update', detail_url: '/api/v1/audits/operate-logs/1/?type=action_detail' }],
      'GET /api/v1/audits/operate-logs/1/': () => ({ diff: [{ field: 'Name', before: 'a', after: null }] }),
    })
    const [entry] = await listActivities('u1')
    expect(entry).toMatchObject({ id: 'a1', kind: 'O', content: 'Update' })
    expect(entry!.at?.getFullYear()).toBe(2023)
    expect(await getOperateLogDiff(entry!.detailUrl)).toEqual([{ field: 'Name', before: 'a', after: '' }])
  })
})

describe('parseServerDateTime', () => {
  it('reads the DRF format with zone, ISO and the zone-less activity format', () => {
    expect(parseServerDateTime('2023/05/09 14:36:56 +0800')?.toISOString()).toBe('2023-05-09T06:36:56.000Z')
    expect(parseServerDateTime('2023-05-09T06:36:56.512Z')?.toISOString()).toBe('2023-05-09T06:36:56.000Z')
    const local = parseServerDateTime('2023-05-09 14:36:56')!
    expect([local.getHours(), local.getMinutes()]).toEqual([14, 36])
    expect(parseServerDateTime('yesterday')).toBeUndefined()
    expect(parseServerDateTime(5)).toBeUndefined()
  })
})
