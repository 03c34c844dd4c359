/**
 * The built-in terminal's recordings go to the default replay storage (docs/terminal.md "Replay storages"): a real
 * session on the real sshd, its recording uploaded when it ends — to a real S3 peer (@20minutes/s3rver, verifying
 * SigV4), then to Azure Blob storage (Azurite, verifying Shared Key) — the local copy removed, the audit's player
 * reading it back.
 */
import { existsSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { replayUploads } from '../resources/terminal/replay-remote.ts'
import { AzureBlobClient } from '../resources/terminal/azure.ts'
import { S3Client } from '../resources/terminal/s3.ts'
import { startAzurite, type TestAzurite } from '../testing/azurite.ts'
import { startS3, type TestS3 } from '../testing/s3.ts'
import { TermClient, terminalManager, tokenFor, useTerminalFixture } from './test-support.ts'

describe('built-in terminal: recordings to an S3 or Azure replay storage', () => {
  const f = useTerminalFixture()
  let s3: TestS3
  let az: TestAzurite
  beforeAll(async () => {
    s3 = await startS3()
    az = await startAzurite()
  })
  afterAll(async () => {
    await s3?.dispose()
    await az?.dispose()
  })

  /** A session of a granted user that types `echo <word>-$((6*7))`, then closes; answers its id and local replay path. */
  const session = async (user: string, word: string) => {
    const g = await f.grantedUser(user)
    const w = new TermClient(f.address, g.c)
    await w.opened()
    w.send({ type: 'connect', token: await tokenFor(g), cols: 90, rows: 25 })
    await w.until(() => /\$ $/.test(w.output), 'prompt')
    const id = (w.frame('session-info')?.session as { id: string }).id
    const replayPath = [...terminalManager(f.t.app).sessions.values()].find((s) => s.id === id)!.replayPath()
    w.type(`echo ${word}-$((6*7))\r`)
    await w.until(() => w.output.includes(`${word}-42`), 'output')
    w.send({ type: 'close' })
    await w.until(() => w.closed !== null, 'closed')
    return { id, replayPath }
  }

  it('uploads the recording when the session ends and plays it back from the storage', async () => {
    const storage = await f.admin.post('/api/v1/terminal/replay-storages/', {
      name: 'recordings', type: 's3', is_default: true,
      meta: { BUCKET: s3.bucket, ENDPOINT: s3.endpoint, ACCESS_KEY: s3.accessKey, SECRET_KEY: s3.secretKey },
    })
    expect(storage.statusCode, storage.body).toBe(201)
    const { id, replayPath } = await session('s3rec', 'to-s3')
    // the session's end started the upload: wait for that pass
    await replayUploads(f.t.app).kick()
    const row = (await sql<{ replay_storage_id: string | null; replay_path: string }>`select replay_storage_id, replay_path from terminal_sessions where id = ${id}`.execute(f.t.database.db)).rows[0]!
    expect(row.replay_storage_id).toBe(storage.json().id)
    expect(existsSync(replayPath)).toBe(false)
    // in the bucket under the replay's relative path, signed with the storage's keys
    const client = new S3Client({ endpoint: s3.endpoint, bucket: s3.bucket, accessKey: s3.accessKey, secretKey: s3.secretKey })
    expect(await client.head(row.replay_path)).toBeGreaterThan(0)
    // the audit's player reads it back from there
    const info = (await f.admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json() as { src: string; type: string }
    expect(info.type).toBe('asciicast')
    const file = await f.admin.get(info.src)
    expect(file.statusCode).toBe(200)
    const lines = gunzipSync(file.rawPayload).toString('utf8').trim().split('\n')
    expect(JSON.parse(lines[0]!)).toMatchObject({ version: 2, width: 90, height: 25 })
    expect(lines.slice(1).map((l) => (JSON.parse(l) as [number, string, string])[2]).join('')).toContain('to-s3-42')
  })

  it('uploads the recording to the default azure storage when the session ends and plays it back from the container', async () => {
    const storage = await f.admin.post('/api/v1/terminal/replay-storages/', {
      name: 'recordings-azure', type: 'azure', is_default: true,
      meta: { CONTAINER_NAME: az.container, ACCOUNT_NAME: az.account, ACCOUNT_KEY: az.key, ENDPOINT_SUFFIX: 'core.windows.net', ENDPOINT: az.endpoint },
    })
    expect(storage.statusCode, storage.body).toBe(201)
    const { id, replayPath } = await session('azrec', 'to-azure')
    await replayUploads(f.t.app).kick()
    const row = (await sql<{ replay_storage_id: string | null; replay_path: string }>`select replay_storage_id, replay_path from terminal_sessions where id = ${id}`.execute(f.t.database.db)).rows[0]!
    expect(row.replay_storage_id).toBe(storage.json().id)
    expect(existsSync(replayPath)).toBe(false)
    const client = new AzureBlobClient({ account: az.account, key: az.key, container: az.container, endpoint: az.endpoint })
    expect(await client.head(row.replay_path)).toBeGreaterThan(0)
    const info = (await f.admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json() as { src: string }
    const file = await f.admin.get(info.src)
    expect(file.statusCode).toBe(200)
    const lines = gunzipSync(file.rawPayload).toString('utf8').trim().split('\n')
    expect(lines.slice(1).map((l) => (JSON.parse(l) as [number, string, string])[2]).join('')).toContain('to-azure-42')
  })
})
