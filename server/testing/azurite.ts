/**
 * A real Azure Blob storage peer for tests: Azurite (Microsoft's Azure Storage emulator, the `azurite` dev
 * package), its blob service as a child process on a free loopback port, keeping blobs in a temp folder, with
 * one container. Azurite checks every request's Shared Key signature against its well-known development account
 * (`devstoreaccount1`), so a wrong key is refused as Azure refuses it. Telemetry is off.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { AzureBlobClient } from '../resources/terminal/azure.ts'

/** Azurite's development account and key (published by Microsoft; azurite's EMULATOR_ACCOUNT_KEY). */
export const AZURITE_ACCOUNT = 'devstoreaccount1'
export const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=='

export interface TestAzurite {
  /** The blob endpoint, with the account in its path. */
  endpoint: string
  account: string
  key: string
  container: string
  /** Stops answering (the port closes); `start()` again on the same port with the same blobs. */
  stop(): Promise<void>
  start(): Promise<void>
  /** Stops and removes its folder. */
  dispose(): Promise<void>
}

const mainOf = () => join(dirname(createRequire(import.meta.url).resolve('azurite/package.json')), 'dist/src/blob/main.js')

export async function startAzurite(container = 'replays'): Promise<TestAzurite> {
  const location = mkdtempSync(join(tmpdir(), 'azurite-'))
  let child: ChildProcess | undefined
  let port = 0
  const endpoint = () => `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`
  const start = async () => {
    const proc = spawn(process.execPath, [mainOf(), '--blobHost', '127.0.0.1', '--blobPort', String(port), '--location', location,
      '--silent', '--disableTelemetry'], { stdio: ['ignore', 'pipe', 'pipe'] })
    child = proc
    port = await new Promise<number>((resolve, reject) => {
      let out = ''
      const seen = (chunk: Buffer) => {
        out += chunk.toString()
        const m = /successfully listens on http:\/\/127\.0\.0\.1:(\d+)/.exec(out)
        if (m) resolve(Number(m[1]))
      }
      proc.stdout.on('data', seen)
      proc.stderr.on('data', seen)
      proc.on('exit', (code) => reject(new Error(`azurite exited (${code}): ${out}`)))
    })
    // the container (kept across a restart: it is there already then)
    const client = new AzureBlobClient({ account: AZURITE_ACCOUNT, key: AZURITE_KEY, container, endpoint: endpoint() })
    const res = await client.request('PUT', undefined, { query: { restype: 'container' } })
    if (res.statusCode !== 409) await client.ok(res)
    res.resume()
  }
  const stop = async () => {
    const proc = child
    child = undefined
    if (!proc || proc.exitCode !== null) return
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve())
      proc.kill('SIGTERM')
    })
  }
  await start()
  return {
    get endpoint() { return endpoint() },
    account: AZURITE_ACCOUNT, key: AZURITE_KEY, container, stop, start,
    dispose: async () => {
      await stop().catch(() => undefined)
      rmSync(location, { recursive: true, force: true })
    },
  }
}
