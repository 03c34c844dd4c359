/**
 * The swift replay storage (docs/terminal.md "Replay storages") against a real OpenStack Swift from Debian's
 * packages (server/testing/swift.ts: proxy with s3api and tempauth, one-replica rings on loopback, a temp
 * folder): JumpServer 3.2 speaks to swift through Swift's S3 API, and so do we — the storage's test writes, reads
 * back and removes an object (a wrong secret is refused by Swift), and a replay stored by a component goes to the
 * default swift storage through the one upload queue and is read back by the audit's download.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { startSwift, type TestSwift } from '../../testing/swift.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { replayUploads } from './replay-remote.ts'
import { S3Client } from './s3.ts'
import { castOf, multipart, signed } from './test-support.ts'

const BOOTSTRAP = 'bootstrap-token-for-swift-replay-tests'
const dataDir = mkdtempSync(join(tmpdir(), 'bastion-replay-swift-'))

describe(`replay storages on OpenStack Swift (${dbKind()})`, () => {
  const s = useTestServer({ bootstrapToken: BOOTSTRAP, dataDir })
  let sw: TestSwift
  const url = '/api/v1/terminal/replay-storages/'
  const meta = (o: Record<string, string> = {}) => ({ BUCKET: sw.bucket, ACCESS_KEY: sw.accessKey, SECRET_KEY: sw.secretKey, ENDPOINT: sw.endpoint, REGION: sw.region, PROTOCOL: 'http', ...o })

  beforeAll(async () => {
    sw = await startSwift()
    await replayUploads(s.t.app).stop()
  }, 120_000)
  afterAll(async () => {
    await sw?.dispose()
  })

  it('tests a storage for real: an object written, read back and removed; a wrong secret, another region or a missing container refused', async () => {
    const ok = await s.admin.post(url, { name: 'swift-test', type: 'swift', meta: meta() })
    expect(ok.statusCode, ok.body).toBe(201)
    expect((await s.admin.get(`${url}${ok.json().id}/test-connective/`)).json())
      .toEqual({ is_valid: true, msg: `A test object was written to bucket ${sw.bucket}, read back and removed.` })
    const bad = await s.admin.post(url, { name: 'swift-bad', type: 'swift', meta: meta({ SECRET_KEY: 'not-the-key' }) })
    expect((await s.admin.get(`${url}${bad.json().id}/test-connective/`)).json()).toMatchObject({ is_valid: false, msg: expect.stringContaining('SignatureDoesNotMatch') })
    // SigV4 signs the region: it must be s3api's location
    const region = await s.admin.post(url, { name: 'swift-region', type: 'swift', meta: meta({ REGION: 'RegionTwo' }) })
    expect((await s.admin.get(`${url}${region.json().id}/test-connective/`)).json()).toMatchObject({ is_valid: false, msg: expect.stringContaining('AuthorizationHeaderMalformed') })
    const missing = await s.admin.post(url, { name: 'swift-missing', type: 'swift', meta: meta({ BUCKET: 'missing' }) })
    expect((await s.admin.get(`${url}${missing.json().id}/test-connective/`)).json()).toMatchObject({ is_valid: false, msg: expect.stringContaining('NoSuchBucket') })
  })

  it('uploads a stored replay to the default swift storage and plays it back from there', async () => {
    const reg = await s.t.app.inject({ method: 'POST', url: '/api/v1/terminal/terminal-registrations/', headers: { authorization: `BootstrapToken ${BOOTSTRAP}`, 'content-type': 'application/json' }, payload: '{"name":"koko-swift","type":"koko"}' })
    const comp = reg.json().service_account.access_key as { id: string; secret: string }
    const storage = await s.admin.post(url, { name: 'swift-default', type: 'swift', is_default: true, meta: meta() })
    expect(storage.statusCode, storage.body).toBe(201)
    const id = '8e3d7a2c-3b2f-4c79-9f66-2f4a4f4c2e99'
    await signed(s.t, comp, 'POST', '/api/v1/terminal/sessions/', { id, user: 'Administrator(admin)', asset: 'web-01', org_id: ORG_IDS.DEFAULT, date_start: '2026-11-27T12:00:00Z' })
    const cast = castOf(['[0.5, "o", "hello from swift\\r\\n"]'])
    const m = multipart('file', `${id}.cast.gz`, cast)
    expect((await signed(s.t, comp, 'POST', `/api/v1/terminal/sessions/${id}/replay/`, m.payload, { 'content-type': m.contentType })).statusCode).toBe(201)
    const local = join(dataDir, 'replays', '2026-11-27', `${id}.cast.gz`)
    expect(existsSync(local)).toBe(true)
    const uploads = replayUploads(s.t.app)
    uploads.now = () => Date.now() + 1000
    expect(await uploads.runDue()).toEqual([{ session: id, ok: true }])
    expect(existsSync(local)).toBe(false)
    const row = (await sql<{ replay_storage_id: string }>`select replay_storage_id from terminal_sessions where id = ${id}`.execute(s.t.database.db)).rows[0]!
    expect(row.replay_storage_id).toBe(storage.json().id)
    const client = new S3Client({ endpoint: sw.endpoint, bucket: sw.bucket, accessKey: sw.accessKey, secretKey: sw.secretKey, region: sw.region })
    expect(await client.head(`2026-11-27/${id}.cast.gz`)).toBe(cast.length)
    // through Swift's own API too: the object is in the container
    const auth = await fetch(`${sw.endpoint}/auth/v1.0`, { headers: { 'x-auth-user': sw.accessKey, 'x-auth-key': sw.secretKey } })
    const native = await fetch(`${auth.headers.get('x-storage-url')}/${sw.bucket}/2026-11-27/${id}.cast.gz`, { headers: { 'x-auth-token': auth.headers.get('x-auth-token')! } })
    expect(native.status).toBe(200)
    expect(Buffer.from(await native.arrayBuffer()).equals(cast)).toBe(true)
    const info = (await s.admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json()
    const after = await s.admin.get(String(info.src))
    expect(after.statusCode).toBe(200)
    expect(after.rawPayload.equals(cast)).toBe(true)
  })
})
