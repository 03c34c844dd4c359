/**
 * A small Azure Blob storage client for the azure replay storage (docs/terminal.md, "Replay storages"): the Blob
 * REST API signed with Shared Key (HMAC-SHA256 of the account key, node:crypto; no Azure SDK —
 * docs/decisions/replay-storages-s3-sigv4-of-our-own.md), and the calls replays need: Put Blob (a block blob, its
 * Content-MD5 checked by the service), Get Blob as a stream, Get Blob Properties and Delete Blob.
 *
 * The blob endpoint is `https://<account>.blob.<endpoint suffix>` (JumpServer's ACCOUNT_NAME and ENDPOINT_SUFFIX),
 * or the storage's optional ENDPOINT (a full blob endpoint: Azure Stack, a private endpoint, or Azurite's
 * `http://127.0.0.1:10000/devstoreaccount1`, which names the account in the path).
 */
import { createHash, createHmac } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { Readable } from 'node:stream'
import { HttpReplayBackend, refusalText, sendRequest, StorageRefusal } from './replay-backend.ts'
import { uriEncode } from './s3.ts'

export interface AzureConfig {
  account: string
  /** The account key, base64 as the portal shows it. */
  key: string
  container: string
  /** `core.windows.net`, `core.chinacloudapi.cn`, … (used when no endpoint is given). */
  endpointSuffix?: string
  /** A full blob endpoint (scheme, host, port, path), instead of `https://<account>.blob.<suffix>`. */
  endpoint?: string
}

/** The REST API version of every request (Put Blob up to 5000 MiB in one request since 2019-12-12). */
export const AZURE_API_VERSION = '2021-12-02'

/** The Azure error answer: status and `x-ms-error-code` (`AuthenticationFailed`, `ContainerNotFound`, …). */
export class AzureError extends StorageRefusal {
  constructor(status: number, code: string, message: string) {
    super(status, code, message)
    this.name = 'AzureError'
  }
}

export interface SharedKeyInput {
  method: string
  account: string
  /** The key, base64. */
  key: string
  /** The request's path as sent (already encoded), starting with `/`. */
  path: string
  query?: Record<string, string>
  /** The request's headers (names in any case); `x-ms-*` ones are signed, the standard ones in their places. */
  headers: Record<string, string>
}

/**
 * The Authorization of a request under Shared Key (Blob service, version 2015-02-21 and later: a zero
 * Content-Length is signed as empty), with the string signed (tests).
 */
export function signSharedKey(i: SharedKeyInput): { authorization: string; stringToSign: string } {
  const h: Record<string, string> = {}
  for (const [k, v] of Object.entries(i.headers)) h[k.toLowerCase()] = v
  const std = (n: string) => (n === 'content-length' && h[n] === '0' ? '' : h[n] ?? '')
  const canonicalHeaders = Object.keys(h).filter((n) => n.startsWith('x-ms-')).sort()
    .map((n) => `${n}:${h[n]!.trim().replace(/\s+/g, ' ')}\n`).join('')
  const params = Object.entries(i.query ?? {}).map(([k, v]) => [k.toLowerCase(), v] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1))
  const canonicalResource = `/${i.account}${i.path}` + params.map(([k, v]) => `\n${k}:${v}`).join('')
  const stringToSign = [
    i.method.toUpperCase(), std('content-encoding'), std('content-language'), std('content-length'), std('content-md5'),
    std('content-type'), std('date'), std('if-modified-since'), std('if-match'), std('if-none-match'),
    std('if-unmodified-since'), std('range'),
  ].join('\n') + '\n' + canonicalHeaders + canonicalResource
  const signature = createHmac('sha256', Buffer.from(i.key, 'base64')).update(stringToSign, 'utf8').digest('base64')
  return { authorization: `SharedKey ${i.account}:${signature}`, stringToSign }
}

export class AzureBlobClient extends HttpReplayBackend {
  private readonly base: URL
  /** The clock of x-ms-date (tests). */
  now: () => Date = () => new Date()

  constructor(readonly config: AzureConfig) {
    super()
    const raw = config.endpoint?.trim() || `https://${config.account}.blob.${config.endpointSuffix || 'core.windows.net'}`
    this.base = new URL(raw.includes('://') ? raw : `https://${raw}`)
  }

  get place(): string { return this.config.container }

  /** The request's path, encoded: the endpoint's path, the container, the blob's name (or none: the container). */
  private pathOf(key?: string): string {
    const prefix = this.base.pathname.replace(/\/+$/, '')
    return `${prefix}/${uriEncode(this.config.container)}${key === undefined ? '' : `/${uriEncode(key, true)}`}`
  }

  /** The URL of a blob (or of the container). */
  urlOf(key?: string): string {
    return `${this.base.protocol}//${this.base.host}${this.pathOf(key)}`
  }

  /** A signed request to the container (no key) or a blob. */
  request(method: string, key: string | undefined, o: { query?: Record<string, string>; headers?: Record<string, string>; body?: () => NodeJS.ReadableStream; length?: number; signal?: AbortSignal } = {}): Promise<IncomingMessage> {
    const path = this.pathOf(key)
    const headers: Record<string, string> = {
      'x-ms-date': this.now().toUTCString(), 'x-ms-version': AZURE_API_VERSION, ...o.headers,
      'content-length': String(o.length ?? 0),
    }
    headers.authorization = signSharedKey({ method, account: this.config.account, key: this.config.key, path, query: o.query, headers }).authorization
    const query = new URLSearchParams(o.query ?? {}).toString()
    return sendRequest(this.base, { method, path: query ? `${path}?${query}` : path, headers, body: o.body, signal: o.signal })
  }

  /** Throws the answer as an AzureError unless it is 2xx; answers it. */
  async ok(res: IncomingMessage): Promise<IncomingMessage> {
    const status = res.statusCode ?? 0
    if (status >= 200 && status < 300) return res
    const text = await refusalText(res)
    const header = res.headers['x-ms-error-code']
    const code = (typeof header === 'string' ? header : undefined) ?? /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? `HTTP${status}`
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1]?.split('\n')[0]?.trim() ?? ''
    throw new AzureError(status, code, message ? `${code}: ${message}` : code)
  }

  private async put(key: string, body: () => NodeJS.ReadableStream, length: number, md5: string, contentType: string): Promise<void> {
    const res = await this.ok(await this.request('PUT', key, {
      headers: { 'x-ms-blob-type': 'BlockBlob', 'content-type': contentType, 'content-md5': md5 }, body, length,
    }))
    res.resume()
  }

  async putFile(key: string, file: string, contentType = 'application/octet-stream'): Promise<void> {
    const { size } = await stat(file)
    const hash = createHash('md5')
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
    await this.put(key, () => createReadStream(file), size, hash.digest('base64'), contentType)
  }

  async putBytes(key: string, body: Buffer, contentType = 'application/octet-stream'): Promise<void> {
    await this.put(key, () => Readable.from([body]), body.length, createHash('md5').update(body).digest('base64'), contentType)
  }

  protected send(method: string, key: string, signal?: AbortSignal): Promise<IncomingMessage> {
    return this.request(method, key, { signal })
  }

  protected missing(res: IncomingMessage): boolean {
    return res.statusCode === 404 && res.headers['x-ms-error-code'] === 'BlobNotFound'
  }
}

/** The azure storage's client from its meta (the key opened), or undefined when a required value is missing. */
export function azureClientOf(meta: Record<string, unknown>): AzureBlobClient | undefined {
  const account = String(meta.ACCOUNT_NAME ?? '')
  const container = String(meta.CONTAINER_NAME ?? '')
  const key = String(meta.ACCOUNT_KEY ?? '')
  if (!account || !container || !key) return undefined
  const endpoint = typeof meta.ENDPOINT === 'string' && meta.ENDPOINT !== '' ? meta.ENDPOINT : undefined
  return new AzureBlobClient({ account, key, container, endpoint, endpointSuffix: String(meta.ENDPOINT_SUFFIX ?? '') || undefined })
}
