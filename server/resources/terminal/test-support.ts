/** What the terminal tests share: a component's signed requests, multipart bodies, gzip asciicasts. */
import { gzipSync } from 'node:zlib'
import { signRequest } from '../../auth/signature.ts'
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

