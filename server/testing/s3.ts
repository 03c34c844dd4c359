/**
 * A real S3 peer for tests: `@20minutes/s3rver` (an S3 server in Node that verifies AWS Signature Version 4 on
 * every request and keeps objects in a folder; docs/decisions/replay-storage-s3.md) on a free loopback port, with
 * one bucket. Its account is fixed: access key `S3RVER`, secret `S3RVER`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import S3rver from '@20minutes/s3rver'

export interface TestS3 {
  endpoint: string
  port: number
  bucket: string
  accessKey: string
  secretKey: string
  /** Stops answering (the port closes); `start()` again on the same port with the same objects. */
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops and removes its folder. */
  dispose(): Promise<void>
}

export async function startS3(bucket = 'replays'): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'))
  let server: S3rver | undefined
  let port = 0
  const start = async () => {
    server = new S3rver({ port, address: '127.0.0.1', silent: true, directory, configureBuckets: [{ name: bucket }] })
    port = (await server.run()).port
  }
  await start()
  const stop = async () => {
    await server?.close()
    server = undefined
  }
  return {
    get endpoint() { return `http://127.0.0.1:${port}` },
    get port() { return port },
    bucket, accessKey: 'S3RVER', secretKey: 'S3RVER', stop, start,
    dispose: async () => {
      await stop().catch(() => undefined)
      rmSync(directory, { recursive: true, force: true })
    },
  }
}
