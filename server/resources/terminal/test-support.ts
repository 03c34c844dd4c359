/** What the terminal tests share: a component's signed requests, multipart bodies, gzip asciicasts. */
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { signRequest } from '../../auth/signature.ts'
import { ORG_IDS } from '../../rbac/catalog.ts'
import type { TestServer } from '../../testing.ts'

export interface Component { id: string; secret: string; terminal: string }

/** A component's signed request (X-JMS-ORG: ROOT, as koko sends). */
export async function signed(t: TestServer, key: { id: string; secret: string }, method: string, url: string, body?: unknown, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { ...signRequest(key.id, key.secret, method, url), 'x-jms-org': 'ROOT', 'accept-language': 'en', ...extra }
  let payload: string | Buffer | undefined
  if (Buffer.isBuffer(body)) payload = body
  else if (body !== undefined) { payload = JSON.stringify(body); headers['content-type'] = 'application/json' }
  return t.app.inject({ method: method as 'GET', url, headers, payload })
}

export function multipart(field: string, filename: string, data: Buffer) {
  const boundary = 'x-test-boundary-42'
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/gzip\r\n\r\n`),
    data, Buffer.from(`\r\n--${boundary}--\r\n`)])
  return { payload, contentType: `multipart/form-data; boundary=${boundary}` }
}

export const castOf = (lines: string[]) => gzipSync(Buffer.from([JSON.stringify({ version: 2, width: 80, height: 24, timestamp: 1700000000 }), ...lines].join('\n') + '\n'))


/**
 * A component registered with the bootstrap token opens session `id` (dated 2026-11-27) and uploads a replay of
 * `text`: its key, the recording sent, and where the server keeps it locally under `dataDir`.
 */
export async function storeComponentReplay(t: TestServer, o: { bootstrap: string; component: string; id: string; text: string; dataDir: string }) {
  const reg = await t.app.inject({ method: 'POST', url: '/api/v1/terminal/terminal-registrations/', headers: { authorization: `BootstrapToken ${o.bootstrap}`, 'content-type': 'application/json' }, payload: JSON.stringify({ name: o.component, type: 'koko' }) })
  if (reg.statusCode !== 201) throw new Error(`registration: ${reg.statusCode} ${reg.body}`)
  const comp = reg.json().service_account.access_key as { id: string; secret: string }
  const opened = await signed(t, comp, 'POST', '/api/v1/terminal/sessions/', { id: o.id, user: 'Administrator(admin)', asset: 'web-01(10.0.0.5)', account: 'root(root)', protocol: 'ssh', org_id: ORG_IDS.DEFAULT, date_start: '2026-11-27T10:00:00Z' })
  if (opened.statusCode !== 201) throw new Error(`session: ${opened.statusCode} ${opened.body}`)
  const cast = castOf([`[0.5, "o", ${JSON.stringify(`${o.text}\r\n`)}]`, '[1.0, "r", "100x30"]'])
  const m = multipart('file', `${o.id}.cast.gz`, cast)
  const stored = await signed(t, comp, 'POST', `/api/v1/terminal/sessions/${o.id}/replay/`, m.payload, { 'content-type': m.contentType })
  if (stored.statusCode !== 201) throw new Error(`replay: ${stored.statusCode} ${stored.body}`)
  return { comp, cast, local: join(o.dataDir, 'replays', '2026-11-27', `${o.id}.cast.gz`) }
}
