/**
 * What the replay upload queue, the replay download and a storage's "Test" need of an external replay storage
 * (replay-remote.ts): one interface, one backend per protocol — S3 and the kinds that speak it (s3.ts), Azure Blob
 * storage (azure.ts). The retries, the read-back and the test live once, over this interface.
 */
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'

export interface ReplayBackend {
  /** Where objects go, for messages: the bucket or the container. */
  readonly place: string
  /** Uploads a file as `key`, its integrity checked by the peer (a signed hash or Content-MD5). */
  putFile(key: string, file: string, contentType?: string): Promise<void>
  /** Uploads a small body. */
  putBytes(key: string, body: Buffer, contentType?: string): Promise<void>
  /** The object as a stream, with its length when the peer says it. */
  get(key: string, signal?: AbortSignal): Promise<{ stream: IncomingMessage; length?: number }>
  /** The object's size, or undefined when there is none. */
  head(key: string): Promise<number | undefined>
  delete(key: string): Promise<void>
}

/** The peer answered, refusing: its status and its error code (`NoSuchKey`, `AuthenticationFailed`, …). */
export class StorageRefusal extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message)
    this.name = 'StorageRefusal'
  }
}

/** A storage request's time bound, and how much of a refusal's body is read for its code and message. */
const TIMEOUT_MS = 30_000
const ERROR_BODY_MAX = 16 * 1024

/**
 * Sends one request (a connection of its own: few requests, one per replay, and no kept-alive socket the peer closed
 * meanwhile), the body streamed from `body` when there is one.
 */
export function sendRequest(base: URL, o: { hostname?: string; method: string; path: string; headers: Record<string, string>; body?: () => NodeJS.ReadableStream; signal?: AbortSignal }): Promise<IncomingMessage> {
  const lib = base.protocol === 'http:' ? http : https
  return new Promise((resolve, reject) => {
    const req = lib.request({
      protocol: base.protocol, hostname: o.hostname ?? base.hostname, port: base.port || undefined, method: o.method,
      path: o.path, headers: o.headers, timeout: TIMEOUT_MS, signal: o.signal, agent: false,
    }, resolve)
    req.on('timeout', () => req.destroy(new Error('timed out')))
    req.on('error', reject)
    if (o.body) {
      const body = o.body()
      body.on('error', (e) => req.destroy(e))
      body.pipe(req)
    } else req.end()
  })
}

/** The start of a refusal's body (bounded), for its error code and message. */
export async function refusalText(res: IncomingMessage): Promise<string> {
  let text = ''
  for await (const chunk of res) {
    if (text.length < ERROR_BODY_MAX) text += String(chunk)
  }
  return text
}

/** The reads and the delete, alike for every HTTP storage: a backend gives its signed request, its refusal and its "not found". */
export abstract class HttpReplayBackend implements ReplayBackend {
  abstract readonly place: string
  abstract putFile(key: string, file: string, contentType?: string): Promise<void>
  abstract putBytes(key: string, body: Buffer, contentType?: string): Promise<void>
  protected abstract send(method: string, key: string, signal?: AbortSignal): Promise<IncomingMessage>
  /** Throws the answer as a StorageRefusal unless it is 2xx; answers it. */
  abstract ok(res: IncomingMessage): Promise<IncomingMessage>
  /** The answer of a HEAD says there is no such object. */
  protected abstract missing(res: IncomingMessage): boolean

  async get(key: string, signal?: AbortSignal): Promise<{ stream: IncomingMessage; length?: number }> {
    const res = await this.ok(await this.send('GET', key, signal))
    const length = Number(res.headers['content-length'])
    return { stream: res, length: Number.isFinite(length) ? length : undefined }
  }

  async head(key: string): Promise<number | undefined> {
    const res = await this.send('HEAD', key)
    if (this.missing(res)) {
      res.resume()
      return undefined
    }
    await this.ok(res)
    res.resume()
    return Number(res.headers['content-length'] ?? 0)
  }

  async delete(key: string): Promise<void> {
    const res = await this.ok(await this.send('DELETE', key))
    res.resume()
  }
}
