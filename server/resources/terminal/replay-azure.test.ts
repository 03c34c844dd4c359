/**
 * The azure replay storage (docs/terminal.md "Replay storages") against a real Azure Blob storage peer: Azurite,
 * Microsoft's emulator, which checks every request's Shared Key signature. The storage's test writes, reads back
 * and removes a blob, and a wrong account key is refused by the peer; a replay stored by a component goes to the
 * default azure storage through the same queue as S3 (kept locally and retried later while the peer is down),
 * and the audit's download reads it back from the container.
 */
import { createHash, randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAzurite, type TestAzurite } from '../../testing/azurite.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { AzureBlobClient, AzureError, azureClientOf, signSharedKey } from './azure.ts'
import { replayUploads, retryDelay } from './replay-remote.ts'
import { storeComponentReplay } from './test-support.ts'

const BOOTSTRAP = 'bootstrap-token-for-azure-replay-tests'
const dataDir = mkdtempSync(join(tmpdir(), 'bastion-replay-azure-'))

describe('Shared Key', () => {
  it('signs the standard headers in their places, x-ms-* headers sorted, the query in the resource', () => {
    const { stringToSign, authorization } = signSharedKey({
      method: 'put', account: 'acct', key: Buffer.from('secret').toString('base64'), path: '/acct/c/a%20b',
      query: { restype: 'container', Comp: 'list' },
      headers: { 'x-ms-version': '2021-12-02', 'X-MS-Date': 'Fri, 27 Nov 2026 10:00:00 GMT', 'Content-Length': '0', 'content-type': 'text/plain', 'x-ms-blob-type': ' Block   Blob ' },
    })
    expect(stringToSign).toBe('PUT\n\n\n\n\ntext/plain\n\n\n\n\n\n\n'
      + 'x-ms-blob-type:Block Blob\nx-ms-date:Fri, 27 Nov 2026 10:00:00 GMT\nx-ms-version:2021-12-02\n'
      + '/acct/acct/c/a%20b\ncomp:list\nrestype:container')
    expect(authorization).toMatch(/^SharedKey acct:[A-Za-z0-9+/]{43}=$/)
  })

  it('addresses https://<account>.blob.<endpoint suffix>/<container>/<blob>, or the blob endpoint given', () => {
    expect(azureClientOf({ ACCOUNT_NAME: 'acct', ACCOUNT_KEY: 'a2V5', CONTAINER_NAME: 'replays', ENDPOINT_SUFFIX: 'core.chinacloudapi.cn' })!.urlOf('2026-11-27/s 1.cast.gz'))
      .toBe('https://acct.blob.core.chinacloudapi.cn/replays/2026-11-27/s%201.cast.gz')
    expect(azureClientOf({ ACCOUNT_NAME: 'acct', ACCOUNT_KEY: 'a2V5', CONTAINER_NAME: 'replays', ENDPOINT_SUFFIX: 'core.windows.net', ENDPOINT: 'http://127.0.0.1:10000/acct/' })!.urlOf('k'))
      .toBe('http://127.0.0.1:10000/acct/replays/k')
    expect(azureClientOf({ ACCOUNT_NAME: 'acct', CONTAINER_NAME: 'replays' })).toBeUndefined()
  })
})

describe(`replay storages on Azure Blob storage (${dbKind()})`, () => {
  const s = useTestServer({ bootstrapToken: BOOTSTRAP, dataDir })
  let az: TestAzurite
  const url = '/api/v1/terminal/replay-storages/'
  const meta = (o: Record<string, string> = {}) => ({ CONTAINER_NAME: az.container, ACCOUNT_NAME: az.account, ACCOUNT_KEY: az.key, ENDPOINT_SUFFIX: 'core.windows.net', ENDPOINT: az.endpoint, ...o })
  const client = () => new AzureBlobClient({ account: az.account, key: az.key, container: az.container, endpoint: az.endpoint })
  const bytesOf = async (stream: NodeJS.ReadableStream) => {
    const parts: Buffer[] = []
    for await (const c of stream) parts.push(c as Buffer)
    return Buffer.concat(parts)
  }

  beforeAll(async () => {
    az = await startAzurite()
    // the passes are run by the test, on its clock: the server's own every-30-s pass is stopped
    await replayUploads(s.t.app).stop()
  })
  afterAll(async () => {
    await az?.dispose()
  })

  it('writes, reads back and deletes a blob with the account key; a wrong key is refused by the peer (Azurite answers 403 AuthorizationFailure)', async () => {
    const c = client()
    const body = Buffer.from('replay bytes \u00e9\n')
    await c.putBytes('2026-11-27/x y.cast.gz', body, 'application/gzip')
    expect(await c.head('2026-11-27/x y.cast.gz')).toBe(body.length)
    const got = await c.get('2026-11-27/x y.cast.gz')
    expect(got.length).toBe(body.length)
    expect((await bytesOf(got.stream)).equals(body)).toBe(true)
    await c.delete('2026-11-27/x y.cast.gz')
    expect(await c.head('2026-11-27/x y.cast.gz')).toBeUndefined()
    await expect(c.get('2026-11-27/x y.cast.gz')).rejects.toMatchObject({ status: 404, code: 'BlobNotFound' })
    const wrong = new AzureBlobClient({ account: az.account, key: Buffer.from('not the account key').toString('base64'), container: az.container, endpoint: az.endpoint })
    const refused = await wrong.putBytes('nope', body).then(() => undefined, (e: unknown) => e)
    expect(refused).toBeInstanceOf(AzureError)
    expect(refused).toMatchObject({ status: 403, code: 'AuthorizationFailure' })
    expect(await c.head('nope')).toBeUndefined()
  })

  it('streams a file of several MiB with its Content-MD5; a body that does not match its MD5 is refused by the peer', async () => {
    const c = client()
    const file = join(dataDir, 'big.bin')
    const bytes = randomBytes(3 * 1024 * 1024 + 17)
    writeFileSync(file, bytes)
    await c.putFile('big/one.bin', file, 'application/gzip')
    expect(await c.head('big/one.bin')).toBe(bytes.length)
    expect((await bytesOf((await c.get('big/one.bin')).stream)).equals(bytes)).toBe(true)
    await c.delete('big/one.bin')
    // the MD5 of another body: the service checks it (what protects an upload from a truncated or altered body)
    const body = Buffer.from('the body')
    const res = await c.request('PUT', 'md5/mismatch', { headers: { 'x-ms-blob-type': 'BlockBlob', 'content-md5': createHash('md5').update('another body').digest('base64') }, body: () => Readable.from([body]), length: body.length })
    // (Azure answers Md5Mismatch; Azurite InvalidOperation, "Provided contentMD5 doesn't match.")
    await expect(c.ok(res)).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/md5/i) })
    expect(await c.head('md5/mismatch')).toBeUndefined()
  })

  it('tests a storage for real: a blob written, read back and removed; a wrong key or a missing container refused', async () => {
    const ok = await s.admin.post(url, { name: 'azure-test', type: 'azure', meta: meta() })
    expect(ok.statusCode, ok.body).toBe(201)
    // the key is sealed and never returned
    expect(JSON.stringify(ok.json())).not.toContain(az.key)
    const test = (await s.admin.get(`${url}${ok.json().id}/test-connective/`)).json()
    expect(test).toEqual({ is_valid: true, msg: `A test blob was written to container ${az.container}, read back and removed.` })
    const bad = await s.admin.post(url, { name: 'azure-bad', type: 'azure', meta: meta({ ACCOUNT_KEY: Buffer.from('wrong key').toString('base64') }) })
    expect(bad.statusCode, bad.body).toBe(201)
    expect((await s.admin.get(`${url}${bad.json().id}/test-connective/`)).json()).toMatchObject({ is_valid: false, msg: expect.stringContaining('AuthorizationFailure') })
    const missing = await s.admin.post(url, { name: 'azure-missing', type: 'azure', meta: meta({ CONTAINER_NAME: 'missing' }) })
    expect((await s.admin.get(`${url}${missing.json().id}/test-connective/`)).json()).toMatchObject({ is_valid: false, msg: expect.stringContaining('ContainerNotFound') })
    // a blob endpoint is an http(s) URL
    const badEndpoint = await s.admin.post(url, { name: 'azure-endpoint', type: 'azure', meta: meta({ ENDPOINT: 'ftp://127.0.0.1/x' }) })
    expect(badEndpoint.statusCode).toBe(400)
    expect(badEndpoint.json()).toMatchObject({ meta: { ENDPOINT: ['Enter a valid URL.'] } })
  })

  it('uploads a stored replay to the default azure storage, keeps it locally and retries while the peer is down, and plays it back from there', async () => {
    const storage = await s.admin.post(url, { name: 'azure-default', type: 'azure', is_default: true, meta: meta() })
    expect(storage.statusCode, storage.body).toBe(201)
    const id = '7d2c6f1b-2a1f-4b68-8e55-1e3f3e3b1d88'
    const { cast, local } = await storeComponentReplay(s.t, { bootstrap: BOOTSTRAP, component: 'koko-azure', id, text: 'hello from azure', dataDir })
    expect(existsSync(local)).toBe(true)

    // the peer is down: the upload fails, the local copy stays, the next attempt is later
    const uploads = replayUploads(s.t.app)
    let clock = Date.now() + 1000
    uploads.now = () => clock
    await az.stop()
    expect(await uploads.runDue()).toEqual([{ session: id, ok: false, error: expect.stringContaining('ECONNREFUSED') }])
    expect(existsSync(local)).toBe(true)
    const queued = (await sql<{ attempts: number; next_attempt: Date }>`select attempts, next_attempt from replay_uploads where session_id = ${id}`.execute(s.t.database.db)).rows[0]!
    expect(queued.attempts).toBe(1)
    expect(new Date(queued.next_attempt).getTime()).toBe(clock + retryDelay(1))
    const before = await s.admin.get(`/api/v1/terminal/sessions/${id}/replay/download/`)
    expect(before.statusCode).toBe(200)
    expect(before.rawPayload.equals(cast)).toBe(true)
    // not due yet: nothing is tried; due: uploaded under the replay's relative path, the local copy goes
    await az.start()
    expect(await uploads.runDue()).toEqual([])
    clock += retryDelay(1)
    expect(await uploads.runDue()).toEqual([{ session: id, ok: true }])
    expect(existsSync(local)).toBe(false)
    const row = (await sql<{ replay_storage_id: string }>`select replay_storage_id from terminal_sessions where id = ${id}`.execute(s.t.database.db)).rows[0]!
    expect(row.replay_storage_id).toBe(storage.json().id)
    expect((await bytesOf((await client().get(`2026-11-27/${id}.cast.gz`)).stream)).equals(cast)).toBe(true)

    // the replay API and the download read it from the container
    const info = (await s.admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json()
    expect(info).toMatchObject({ type: 'asciicast', src: `/api/v1/terminal/sessions/${id}/replay/download/` })
    const after = await s.admin.get(String(info.src))
    expect(after.statusCode).toBe(200)
    expect(after.headers['content-type']).toBe('application/gzip')
    expect(after.rawPayload.equals(cast)).toBe(true)

    // the blob is gone from the container: a clear 404 naming Azure's code, no 500
    await client().delete(`2026-11-27/${id}.cast.gz`)
    const gone = await s.admin.get(String(info.src))
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toMatchObject({ code: 'replay_unavailable', detail: expect.stringContaining('BlobNotFound') })
  })
})
