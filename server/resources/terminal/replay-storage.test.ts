/**
 * Replay storages that speak S3 (docs/terminal.md "Replay storages"): the SigV4 signer against AWS's published
 * example, then a real S3 peer (@20minutes/s3rver, which verifies every request's signature): the storage's test,
 * a replay uploaded by a component going to the default storage (kept locally until the upload succeeds, tried
 * again later when it fails), read back by the audit's download from there.
 */
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS } from '../../rbac/catalog.ts'
import { startS3, type TestS3 } from '../../testing/s3.ts'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'
import { replayUploads, retryDelay } from './replay-remote.ts'
import { S3Client, signV4 } from './s3.ts'
import { castOf, multipart, signed, storeComponentReplay } from './test-support.ts'

const BOOTSTRAP = 'bootstrap-token-for-replay-tests'
const dataDir = mkdtempSync(join(tmpdir(), 'bastion-replay-s3-'))

describe('SigV4', () => {
  it('signs AWS\'s published example (GET Object with a Range, sig-v4-header-based-auth)', () => {
    const r = signV4({
      method: 'GET', host: 'examplebucket.s3.amazonaws.com', path: '/test.txt', headers: { Range: 'bytes=0-9' },
      payloadHash: createHash('sha256').update('').digest('hex'),
      accessKey: 'AKIAIOSFODNN7EXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1',
      date: new Date('2013-05-24T00:00:00Z'),
    })
    expect(r.stringToSign.split('\n').pop()).toBe('7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972')
    expect(r.headers.authorization).toBe('AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,'
      + 'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41')
  })
})

describe(`replay storages over S3 (${dbKind()})`, () => {
  const s = useTestServer({ bootstrapToken: BOOTSTRAP, dataDir })
  let s3: TestS3
  let comp: { id: string; secret: string }
  const url = '/api/v1/terminal/replay-storages/'

  beforeAll(async () => {
    s3 = await startS3()
    // the passes are run by the test, on its clock: the server's own every-30-s pass is stopped
    await replayUploads(s.t.app).stop()
  })
  afterAll(async () => {
    await s3?.dispose()
  })

  const client = () => new S3Client({ endpoint: s3.endpoint, bucket: s3.bucket, accessKey: s3.accessKey, secretKey: s3.secretKey })
  const bytesOf = async (stream: NodeJS.ReadableStream) => {
    const parts: Buffer[] = []
    for await (const c of stream) parts.push(c as Buffer)
    return Buffer.concat(parts)
  }

  it('tests a storage for real: a signed object written, read back and removed; a wrong secret is refused by the peer', async () => {
    const ok = await s.admin.post(url, { name: 's3-test', type: 's3', meta: { BUCKET: s3.bucket, ENDPOINT: s3.endpoint, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey } })
    expect(ok.statusCode, ok.body).toBe(201)
    const test = (await s.admin.get(`${url}${ok.json().id}/test-connective/`)).json()
    expect(test).toEqual({ is_valid: true, msg: `A test object was written to bucket ${s3.bucket}, read back and removed.` })
    const bad = await s.admin.post(url, { name: 's3-bad', type: 'ceph', meta: { BUCKET: s3.bucket, ENDPOINT: s3.endpoint, ACCESS_KEY: s3.accessKey, SECRET_KEY: 'not-the-secret' } })
    const refused = (await s.admin.get(`${url}${bad.json().id}/test-connective/`)).json()
    expect(refused).toMatchObject({ is_valid: false, msg: expect.stringContaining('SignatureDoesNotMatch') })
    const noBucket = await s.admin.post(url, { name: 's3-nobucket', type: 's3', meta: { BUCKET: 'missing', ENDPOINT: s3.endpoint, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey } })
    expect((await s.admin.get(`${url}${noBucket.json().id}/test-connective/`)).json()).toMatchObject({ is_valid: false, msg: expect.stringContaining('NoSuchBucket') })
  })

  it('uploads a stored replay to the default storage, keeps it locally until then and retries later, and plays it back from there', async () => {
    const storage = await s.admin.post(url, { name: 's3-default', type: 's3', is_default: true, meta: { BUCKET: s3.bucket, ENDPOINT: s3.endpoint, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey } })
    expect(storage.statusCode, storage.body).toBe(201)
    const id = '6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0c77'
    const stored = await storeComponentReplay(s.t, { bootstrap: BOOTSTRAP, component: 'koko-s3', id, text: 'hello from s3', dataDir })
    comp = stored.comp
    const { cast, local } = stored
    expect(existsSync(local)).toBe(true)

    // the peer is down: the upload fails, the local copy stays, the next attempt is later
    const uploads = replayUploads(s.t.app)
    let clock = Date.now() + 1000
    uploads.now = () => clock
    await s3.stop()
    const failed = await uploads.runDue()
    expect(failed).toEqual([{ session: id, ok: false, error: expect.stringContaining('ECONNREFUSED') }])
    expect(existsSync(local)).toBe(true)
    const queued = (await sql<{ attempts: number; next_attempt: Date; last_error: string }>`select attempts, next_attempt, last_error from replay_uploads where session_id = ${id}`.execute(s.t.database.db)).rows[0]!
    expect(queued.attempts).toBe(1)
    expect(new Date(queued.next_attempt).getTime()).toBe(clock + retryDelay(1))
    // meanwhile the audit plays it from the local copy
    const before = await s.admin.get(`/api/v1/terminal/sessions/${id}/replay/download/`)
    expect(before.statusCode).toBe(200)
    expect(before.rawPayload.equals(cast)).toBe(true)
    // not due yet: nothing is tried
    await s3.start()
    expect(await uploads.runDue()).toEqual([])
    // due: uploaded under the replay's relative path, the session names the storage, the local copy goes
    clock += retryDelay(1)
    expect(await uploads.runDue()).toEqual([{ session: id, ok: true }])
    expect(existsSync(local)).toBe(false)
    expect((await sql<{ n: number }>`select count(*)::int as n from replay_uploads`.execute(s.t.database.db)).rows[0]!.n).toBe(0)
    const row = (await sql<{ replay_storage_id: string }>`select replay_storage_id from terminal_sessions where id = ${id}`.execute(s.t.database.db)).rows[0]!
    expect(row.replay_storage_id).toBe(storage.json().id)
    expect((await bytesOf((await client().get(`2026-11-27/${id}.cast.gz`)).stream)).equals(cast)).toBe(true)

    // the replay API and the download read it from the storage
    const info = (await s.admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json()
    expect(info).toMatchObject({ type: 'asciicast', src: `/api/v1/terminal/sessions/${id}/replay/download/` })
    const after = await s.admin.get(String(info.src))
    expect(after.statusCode).toBe(200)
    expect(after.headers['content-type']).toBe('application/gzip')
    expect(after.rawPayload.equals(cast)).toBe(true)

    // the storage is down when the audit asks: a clear 404, no 500
    await s3.stop()
    const down = await s.admin.get(String(info.src))
    expect(down.statusCode).toBe(404)
    expect(down.json()).toMatchObject({ code: 'replay_unavailable', detail: expect.stringContaining('ECONNREFUSED') })
    await s3.start()

    // a storage holding replays is not deleted (the default is not either, so another one takes that first)
    await s.admin.patch(`${url}00000000-0000-0000-0000-000000000001/`, { is_default: true })
    const del = await s.admin.delete(`${url}${storage.json().id}/`)
    expect(del.statusCode).toBe(400)
    expect(del.json()).toMatchObject({ code: 'storage_in_use' })
  })

  it('keeps replays local when the default storage is the server or not S3-compatible', async () => {
    await s.admin.patch(`${url}00000000-0000-0000-0000-000000000001/`, { is_default: true })
    const id = '6c1b5e0a-1f0e-4a57-9d44-0d2f2d2a0c78'
    await signed(s.t, comp, 'POST', '/api/v1/terminal/sessions/', { id, user: 'Administrator(admin)', asset: 'web-01', org_id: ORG_IDS.DEFAULT, date_start: '2026-11-27T11:00:00Z' })
    const m = multipart('file', `${id}.cast.gz`, castOf(['[0.5, "o", "local only"]']))
    expect((await signed(s.t, comp, 'POST', `/api/v1/terminal/sessions/${id}/replay/`, m.payload, { 'content-type': m.contentType })).statusCode).toBe(201)
    expect((await sql<{ n: number }>`select count(*)::int as n from replay_uploads where session_id = ${id}`.execute(s.t.database.db)).rows[0]!.n).toBe(0)
    expect(existsSync(join(dataDir, 'replays', '2026-11-27', `${id}.cast.gz`))).toBe(true)
  })
})
