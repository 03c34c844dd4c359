/**
 * The Site URL's default follows the address the server really listens on (issue 35: it said
 * `http://127.0.0.1:8080` whatever the port); a stored value wins over it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer } from '../auth/test-support.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'

const url = '/api/v1/settings/setting/?category=basic'

describe(`settings: the Site URL's default (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient
  let address: string

  beforeAll(async () => {
    server = await authTestServer()
    address = await server.listen()
    admin = await asEnglish(server, 'admin')
  })
  afterAll(async () => {
    await server?.close()
  })

  it('is the address and port the server listens on', async () => {
    expect(address).not.toMatch(/:8080$/)
    expect((await admin.get(url)).json().SITE_URL).toBe(`http://${address}`)
  })

  it('gives way to a value the administrator saved', async () => {
    expect((await admin.patch(url, { SITE_URL: 'https://bastion.example.com' })).statusCode).toBe(200)
    expect((await admin.get(url)).json().SITE_URL).toBe('https://bastion.example.com')
  })
})
