import { describe, expect, it } from 'vitest'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const FAV = '/api/v1/assets/favorite-assets/'

describe(`favourite assets (${dbKind()})`, () => {
  const s = useTestServer()

  it('lists, adds and deletes only the signed-in user\'s favourites; bad asset ids are 400', async () => {
    const a = (await s.admin.post('/api/v1/assets/hosts/', { name: 'fav1', address: '10.0.0.1', platform: 1 })).json()
    const b = (await s.admin.post('/api/v1/assets/hosts/', { name: 'fav2', address: '10.0.0.2', platform: 1 })).json()
    await s.t.createUser({ username: 'other' })
    const other = await s.t.as('other')
    other.headers['accept-language'] = 'en'

    expect((await s.admin.post(FAV, { asset: a.id })).statusCode).toBe(201)
    expect((await s.admin.post(FAV, { asset: b.id })).json()).toEqual({ asset: b.id })
    expect((await s.admin.post(FAV, { asset: a.id })).statusCode).toBe(400)
    expect((await other.post(FAV, { asset: b.id })).statusCode).toBe(201)

    expect((await s.admin.get(FAV)).json()).toEqual([{ asset: a.id }, { asset: b.id }])
    expect((await other.get(FAV)).json()).toEqual([{ asset: b.id }])
    expect((await s.admin.get(`${FAV}?asset=${a.id}`)).json()).toEqual([{ asset: a.id }])

    const bad = await s.admin.post(FAV, { asset: 'not-a-uuid' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ asset: ['Invalid pk "not-a-uuid" - object does not exist.'] })
    expect((await s.admin.post(FAV, { asset: '00000000-0000-0000-0000-00000000dead' })).statusCode).toBe(400)
    expect((await s.admin.post(FAV, {})).json()).toEqual({ asset: ['This field is required.'] })
    expect((await s.admin.delete(FAV)).statusCode).toBe(400)

    // another user deleting "b" removes only their own favourite
    expect((await other.delete(`${FAV}?asset=${b.id}`)).statusCode).toBe(204)
    expect((await other.get(FAV)).json()).toEqual([])
    expect((await s.admin.get(FAV)).json()).toEqual([{ asset: a.id }, { asset: b.id }])
    expect((await s.admin.delete(`${FAV}?asset=${a.id}`)).statusCode).toBe(204)
    expect((await s.admin.get(FAV)).json()).toEqual([{ asset: b.id }])
  })
})
