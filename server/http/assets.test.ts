import { createHash } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAssetStore, inlineScriptHashes, type AssetStore } from './assets.ts'

const script = 'export const x = 1;\n'.repeat(200)
const page = '<!doctype html><html><head><script data-x="1">window.a = 1</script><script src="/ui/assets/a.js"></script></head><body></body></html>'

describe('the asset store', () => {
  let dir: string
  let app: FastifyInstance
  let store: AssetStore

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bastion-assets-'))
    mkdirSync(join(dir, 'assets'))
    writeFileSync(join(dir, 'assets', 'a.js'), script)
    writeFileSync(join(dir, 'assets', 'a.js.br'), brotliCompressSync(script))
    writeFileSync(join(dir, 'assets', 'a.js.gz'), gzipSync(script))
    writeFileSync(join(dir, 'assets', 'big.js'), 'x'.repeat(5000))
    writeFileSync(join(dir, 'index.html'), page)
    writeFileSync(join(tmpdir(), 'bastion-assets-outside.txt'), 'secret')
    store = createAssetStore(dir, { maxFileBytes: 4096 })
    app = Fastify()
    app.get('/f/*', async (req, reply) => {
      const path = (req.params as { '*': string })['*']
      return store.serve(req, reply, path, { cacheControl: 'public, max-age=60', csp: path.endsWith('.html') ? (h) => `script-src 'self' ${h.join(' ')}` : undefined })
        || reply.status(404).send('Not found')
    })
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
    rmSync(join(tmpdir(), 'bastion-assets-outside.txt'), { force: true })
  })

  it('answers with the copy the client accepts, and 304 for the copy it holds', async () => {
    const br = await app.inject({ url: '/f/assets/a.js', headers: { 'accept-encoding': 'gzip, br' } })
    expect(br.statusCode).toBe(200)
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: 'Accept-Encoding', 'cache-control': 'public, max-age=60' })
    expect(br.headers['content-type']).toMatch(/^text\/javascript/)
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script)
    const plain = await app.inject({ url: '/f/assets/a.js' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe(script)
    expect(plain.headers.etag).not.toBe(br.headers.etag)
    const again = await app.inject({ url: '/f/assets/a.js', headers: { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) } })
    expect(again.statusCode).toBe(304)
    expect(again.rawPayload.length).toBe(0)
    // The identity copy's tag does not validate the brotli copy.
    expect((await app.inject({ url: '/f/assets/a.js', headers: { 'accept-encoding': 'br', 'if-none-match': String(plain.headers.etag) } })).statusCode).toBe(200)
  })

  it('sees a rebuilt file, and keeps no more than its bound', async () => {
    const before = store.heldBytes()
    const path = join(dir, 'assets', 'a.js')
    writeFileSync(path, 'export const y = 2\n')
    utimesSync(path, new Date(), new Date(Date.now() + 5000))
    const r = await app.inject({ url: '/f/assets/a.js' })
    expect(r.body).toBe('export const y = 2\n')
    expect(store.heldBytes()).not.toBe(before)
    // Over maxFileBytes: served, not held.
    const held = store.heldBytes()
    const big = await app.inject({ url: '/f/assets/big.js' })
    expect(big.statusCode).toBe(200)
    expect(big.body).toHaveLength(5000)
    expect(store.heldBytes()).toBe(held)
  })

  it('serves nothing outside its folder', async () => {
    for (const url of ['/f/../bastion-assets-outside.txt', '/f/%2e%2e/bastion-assets-outside.txt', '/f/assets/../../bastion-assets-outside.txt', '/f/', '/f/assets', '/f/nope.js']) {
      expect((await app.inject({ url })).statusCode, url).toBe(404)
    }
  })

  it("gives a page a policy that allows its own inline scripts by their hash", async () => {
    const r = await app.inject({ url: '/f/index.html', headers: { 'accept-encoding': 'br' } })
    const hash = `'sha256-${createHash('sha256').update('window.a = 1').digest('base64')}'`
    expect(r.headers['content-security-policy']).toBe(`script-src 'self' ${hash}`)
    expect(inlineScriptHashes(page)).toEqual([hash])
    expect(inlineScriptHashes('<script src="x.js"></script><script type="module">\n</script>')).toHaveLength(1)
  })
})
