import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asEnglish, authTestServer } from '../auth/test-support.ts'
import { dbKind, type TestClient, type TestServer } from '../testing.ts'
import { invalidateSettingsCache } from './store.ts'

// a 1×1 PNG
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYPgPAAEDAQAIicLsAAAAAElFTkSuQmCC', 'base64')
const URL_ = '/api/v1/xpack/interface/setting/'

/** A multipart/form-data body as a browser's FormData sends it. */
function formData(fields: Record<string, string>, files: Record<string, { name: string; type: string; bytes: Buffer }>) {
  const boundary = '----bastionTestBoundary7MA4YWxk'
  const chunks: Buffer[] = []
  for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`))
  for (const [k, f] of Object.entries(files)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.bytes, Buffer.from('\r\n'))
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

describe(`lina's xpack interface endpoint (${dbKind()})`, () => {
  let server: TestServer
  let admin: TestClient

  beforeAll(async () => {
    invalidateSettingsCache()
    server = await authTestServer()
    admin = await asEnglish(server, 'admin')
  })
  afterAll(async () => server?.close())

  it('reads, saves a multipart upload of two logos with the title, serves them to the login page, restores', async () => {
    const before = (await admin.get(URL_)).json()
    expect(before).toMatchObject({ login_title: 'JumpServer Open Source Bastion Host', theme: 'classic_green', logo_logout: '/static/img/logo.png' })
    const put = await admin.request({ method: 'PUT', url: URL_, ...formData(
      { login_title: 'Acme bastion', theme: 'classic_blue', favicon: 'null', login_image: before.login_image },
      { logo_logout: { name: 'logo.png', type: 'image/png', bytes: PNG }, logo_index: { name: 'index.png', type: 'image/png', bytes: PNG } }) })
    expect(put.statusCode, put.body).toBe(200)
    const saved = put.json()
    expect(saved).toMatchObject({ login_title: 'Acme bastion', theme: 'classic_blue', favicon: '/static/img/facio.ico', login_image: before.login_image })
    expect(saved.logo_logout).toMatch(/^\/media\/settings\/INTERFACE_LOGO_LOGOUT\/[0-9a-f]{16}\.png$/)
    const served = await server.client().get(saved.logo_index)
    expect(served.statusCode).toBe(200)
    expect(served.rawPayload.equals(PNG)).toBe(true)
    const open = (await server.client().get('/api/v1/settings/public/open/')).json()
    expect(JSON.stringify(open)).toContain(saved.logo_logout)
    expect(JSON.stringify(open)).toContain('Acme bastion')

    const restored = await admin.put(`${URL_}restore/`)
    expect(restored.json()).toEqual({ success: 'Restore default successfully.' })
    expect((await admin.get('/api/v1/xpack/interface/setting')).json()).toMatchObject({ login_title: 'JumpServer Open Source Bastion Host', logo_logout: '/static/img/logo.png' })
    expect((await admin.get('/api/v1/xpack/interface/themes/')).json().map((t: { name: string }) => t.name)).toContain('dark_purple')
  })

  it('refuses what is not an image, too large, or a bad theme on the xpack key, saving nothing; needs the permission', async () => {
    const svg = await admin.request({ method: 'PUT', url: URL_, ...formData({ login_title: 'Changed' }, { favicon: { name: 'x.svg', type: 'image/svg+xml', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>') } }) })
    expect(svg.statusCode).toBe(400)
    expect(Object.keys(svg.json())).toEqual(['favicon'])
    const big = await admin.request({ method: 'PUT', url: URL_, ...formData({}, { login_image: { name: 'big.png', type: 'image/png', bytes: Buffer.concat([PNG, Buffer.alloc(600 * 1024)]) } }) })
    expect(big.statusCode).toBe(400)
    expect(big.json().login_image[0]).toContain('512 KB')
    expect((await admin.put(URL_, { theme: 'neon' })).json()).toHaveProperty('theme')
    expect((await admin.get(URL_)).json().login_title).toBe('JumpServer Open Source Bastion Host')
    await server.createUser({ username: 'plain' })
    const plain = await asEnglish(server, 'plain')
    expect((await plain.get(URL_)).statusCode).toBe(403)
    expect((await plain.request({ method: 'PUT', url: URL_, ...formData({ login_title: 'x' }, {}) })).statusCode).toBe(403)
  })
})
