import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compressedCopies } from '../../scripts/vite-plugins.ts'
import { PERMISSION_BY_CODENAME } from '../rbac/catalog.ts'
import { createTestServer, dbKind, type TestClient, type TestServer } from '../testing.ts'
import { chooseEncoding } from './compress.ts'

describe(`first visit: compression, caching, the reference console's calls (${dbKind()})`, () => {
  let t: TestServer
  let admin: TestClient
  let dist: string
  const script = `export const x = ${JSON.stringify('console code '.repeat(400))}\n`

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'first-visit-dist-'))
    mkdirSync(join(dist, 'assets'))
    writeFileSync(join(dist, 'index.html'), '<!doctype html><div id="root"></div>')
    writeFileSync(join(dist, 'luna.html'), '<!doctype html><title>luna</title><div id="root"></div>')
    writeFileSync(join(dist, 'assets', 'main-abc123.js'), script)
    const { br, gz } = compressedCopies(Buffer.from(script))
    writeFileSync(join(dist, 'assets', 'main-abc123.js.br'), br!)
    writeFileSync(join(dist, 'assets', 'main-abc123.js.gz'), gz!)
    t = await createTestServer({ distDir: dist })
    admin = await t.as('admin')
    admin.headers['accept-language'] = 'en'
  })
  afterAll(async () => {
    await t.close()
    rmSync(dist, { recursive: true, force: true })
  })

  it('chooses brotli, then gzip, honouring q=0', () => {
    expect(chooseEncoding('gzip, deflate, br')).toBe('br')
    expect(chooseEncoding('gzip, br;q=0')).toBe('gzip')
    expect(chooseEncoding('identity')).toBeUndefined()
    expect(chooseEncoding('*')).toBe('br')
    expect(chooseEncoding(undefined)).toBeUndefined()
  })

  it('serves the precompressed copy of a hashed asset by Accept-Encoding, cached for good', async () => {
    const c = t.client()
    const br = await c.get('/ui/assets/main-abc123.js', { 'accept-encoding': 'gzip, br' })
    expect(br.statusCode).toBe(200)
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script)
    const gz = await c.get('/ui/assets/main-abc123.js', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script)
    const plain = await c.get('/ui/assets/main-abc123.js')
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(script)
    const html = await c.get('/ui/console/users/users', { 'accept-encoding': 'br' })
    expect(html.headers['cache-control']).toBe('no-store')
  })

  it('compresses API answers above 1 KB and leaves small ones alone', async () => {
    for (let i = 0; i < 30; i++) await t.createUser({ username: `fv${i}` })
    const big = await admin.get('/api/v1/users/users/?limit=25', { 'accept-encoding': 'br' })
    expect(big.headers['content-encoding']).toBe('br')
    expect(big.headers.vary).toMatch(/Accept-Encoding/i)
    const body = JSON.parse(brotliDecompressSync(big.rawPayload).toString())
    expect(body.results).toHaveLength(25)
    expect(big.rawPayload.length).toBeLessThan(JSON.stringify(body).length / 3)
    const gz = await admin.get('/api/v1/users/users/?limit=25', { 'accept-encoding': 'gzip' })
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString()).results).toHaveLength(25)
    const small = await admin.get('/api/v1/settings/public/open/', { 'accept-encoding': 'br' })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(small.json()).toHaveProperty('XPACK_ENABLED')
    const none = await admin.get('/api/v1/users/users/?limit=25')
    expect(none.headers['content-encoding']).toBeUndefined()
    expect(none.json().results).toHaveLength(25)
  })

  it('answers OPTIONS of the profile with its fields', async () => {
    const r = await admin.options('/api/v1/users/profile/')
    expect(r.statusCode).toBe(200)
    const put = r.json().actions.PUT
    expect(put.name).toMatchObject({ type: 'string', required: true, read_only: false })
    expect(put.username).toMatchObject({ read_only: true })
    expect(put.public_key).toMatchObject({ write_only: true })
    expect(put.mfa_level.choices.map((c: { value: number }) => c.value)).toEqual([0, 1])
    expect(r.json().actions.GET.email).toMatchObject({ type: 'email' })
    expect((await t.client().options('/api/v1/users/profile/')).statusCode).toBe(401)
  })

  it("serves a role's permission tree under the role, as the reference console reads it", async () => {
    const role = (await admin.post('/api/v1/rbac/org-roles/', { name: 'Tree reader', permissions: [PERMISSION_BY_CODENAME.get('users.view_user')!.id] })).json()
    const tree = await admin.get(`/api/v1/rbac/org-roles/${role.id}/permissions/tree/`)
    expect(tree.statusCode).toBe(200)
    expect(tree.json()).toEqual((await admin.get(`/api/v1/rbac/permissions/tree/?role=${role.id}`)).json())
    expect(tree.json().find((n: { title: string }) => n.title === 'users.view_user')).toMatchObject({ checked: true })
    const sys = await admin.get('/api/v1/rbac/system-roles/00000000-0000-0000-0000-000000000001/permissions/tree/')
    expect(sys.statusCode).toBe(200)
    expect(sys.json().length).toBeGreaterThan(10)
    const user = await t.createUser({ username: 'fv-plain' })
    expect(user).toBeTruthy()
    expect((await (await t.as('fv-plain')).get(`/api/v1/rbac/org-roles/${role.id}/permissions/tree/`)).statusCode).toBe(403)
  })

  it('serves the default images the settings point at', async () => {
    const c = t.client()
    for (const [path, type] of [['/static/img/logo.png', 'image/png'], ['/static/img/logo_text_white.png', 'image/png'],
      ['/static/img/facio.ico', 'image/'], ['/static/img/avatar/user.png', 'image/png'], ['/static/img/avatar/admin.png', 'image/png']]) {
      const r = await c.get(path!)
      expect(r.statusCode, `${path} ${r.body.slice(0, 200)}`).toBe(200)
      expect(r.headers['content-type'], path).toContain(type!)
      expect(r.rawPayload.length, path).toBeGreaterThan(100)
    }
    expect((await c.get('/static/img/../../app.ts')).statusCode).toBe(404)
  })

  it('answers the download link with a page saying what is needed; koko\'s file manager link goes to the console\'s', async () => {
    const c = t.client()
    const koko = await c.get('/koko/elfinder/sftp/')
    expect([koko.statusCode, koko.headers.location]).toEqual([302, '/ui/workbench/file-manager'])
    for (const path of ['/core/download/']) {
      const r = await c.get(path, { 'accept-language': 'en' })
      expect(r.statusCode, path).toBe(404)
      expect(r.headers['content-type'], path).toMatch(/text\/html/)
      expect(r.body, path).toMatch(/needs|does not ship/)
      expect(r.body, path).toContain('href="/ui/"')
    }
    expect((await c.get('/core/download/', { 'accept-language': 'ja' })).body).toContain('ダウンロードセンター')
  })

  it('serves the web terminal page to a signed-in user at every path under /luna/, and the login page first otherwise', async () => {
    for (const path of ['/luna/', '/luna/?login_to=x', '/luna/connect?token=abc', '/luna/anything/else']) {
      const r = await admin.get(path)
      expect(r.statusCode, path).toBe(200)
      expect(r.body, path).toContain('<title>luna</title>')
      expect(r.headers['cache-control'], path).toBe('no-store')
    }
    expect((await admin.get('/luna')).headers.location).toBe('/luna/')
    const anonymous = await t.client().get('/luna/connect?token=abc')
    expect(anonymous.statusCode).toBe(302)
    expect(anonymous.headers.location).toBe(`/core/auth/login/?next=${encodeURIComponent('/luna/connect?token=abc')}`)
  })

  it('says tickets are on by default (JumpServer 3.2: TICKETS_ENABLED = True)', async () => {
    expect((await admin.get('/api/v1/settings/public/')).json().TICKETS_ENABLED).toBe(true)
  })
})
