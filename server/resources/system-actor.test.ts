/** "System" as the creator of the server's own rows follows the reader's language (issue 35); names stay as they are. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { authTestServer } from '../auth/test-support.ts'
import { dbKind, type TestServer } from '../testing.ts'

describe(`"System" as creator (${dbKind()})`, () => {
  let server: TestServer
  beforeAll(async () => {
    server = await authTestServer()
  })
  afterAll(async () => {
    await server?.close()
  })

  it.each([['zh', '系统'], ['ja', 'システム'], ['en', 'System']])('reads "System" in %s as %s', async (lang, shown) => {
    const admin = await server.as('admin')
    admin.headers['accept-language'] = lang
    const users = (await admin.get('/api/v1/users/users/?username=admin&limit=10')).json().results
    expect(users[0].created_by).toBe(shown)
    const roles = (await admin.get('/api/v1/rbac/system-roles/?limit=1')).json().results
    expect(roles[0]).toMatchObject({ created_by: shown, scope: { value: 'system', label: shown } })
  })

  it('leaves a person’s name alone', async () => {
    const admin = await server.as('admin')
    admin.headers['accept-language'] = 'zh'
    const made = await admin.post('/api/v1/users/groups/', { name: 'made-by-admin' })
    expect(made.statusCode).toBe(201)
    expect(made.json().created_by).toMatch(/admin/)
  })
})
