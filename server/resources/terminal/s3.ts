/**
 * A small S3 client for the replay storages (docs/terminal.md, "Replay storages"): AWS Signature Version 4 with
 * node:crypto (docs/decisions/replay-storage-s3.md: no SDK), and the four calls replays need — put an object from
 * a file, get one as a stream, head and delete. S3, Ceph's RGW, MinIO, Aliyun OSS, Huawei OBS and Tencent COS
 * take these requests as S3 does.
 *
 * Addressing: virtual-hosted (`bucket.host/key`) for the clouds whose endpoints want it, path style
 * (`host/bucket/key`) for any other endpoint (an address, a private Ceph or MinIO). The region comes from the
 * storage's REGION, or the endpoint's name (`s3.<region>.amazonaws.com`, `oss-<region>.aliyuncs.com`, …), or
 * `us-east-1`.
 */
import { createHash, createHmac } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import type { IncomingMessage } from 'node:http'
import { HttpReplayBackend, refusalText, sendRequest, StorageRefusal } from './replay-backend.ts'

export interface S3Config {
  endpoint: string
  bucket: string
  accessKey: string
  secretKey: string
  region?: string
}

/**
 * The storage kinds spoken to as S3 (JumpServer 3.2 maps ceph to s3 too, and speaks to swift through Swift's S3
 * API — its config adds `signer: S3SignerType` — with the same BUCKET/ACCESS_KEY/SECRET_KEY/ENDPOINT/REGION).
 */
export const S3_KINDS = new Set(['s3', 'ceph', 'oss', 'obs', 'cos', 'swift'])

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex')

/** RFC 3986 percent-encoding as SigV4 wants it: all but A–Z a–z 0–9 - . _ ~ (and `/` when a path). */
export function uriEncode(s: string, keepSlash = false): string {
  return Array.from(Buffer.from(s, 'utf8')).map((b) => {
    const c = String.fromCharCode(b)
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c
    return `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }).join('')
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()
const sha256hex = (data: string) => createHash('sha256').update(data, 'utf8').digest('hex')

export interface SignInput {
  method: string
  host: string
  /** The path, not yet encoded (each segment is encoded). */
  path: string
  query?: Record<string, string>
  /** Headers to sign beside host, x-amz-content-sha256 and x-amz-date (names in any case). */
  headers?: Record<string, string>
  payloadHash: string
  accessKey: string
  secretKey: string
  region: string
  service?: string
  date: Date
}

/** The headers of a request signed with SigV4 (Authorization, x-amz-date, x-amz-content-sha256, and the given ones). */
export function signV4(i: SignInput): { headers: Record<string, string>; canonicalRequest: string; stringToSign: string } {
  const amzDate = i.date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
  const day = amzDate.slice(0, 8)
  const service = i.service ?? 's3'
  const all: Record<string, string> = { host: i.host, 'x-amz-content-sha256': i.payloadHash, 'x-amz-date': amzDate }
  for (const [k, v] of Object.entries(i.headers ?? {})) all[k.toLowerCase()] = v
  const names = Object.keys(all).sort()
  const canonicalHeaders = names.map((n) => `${n}:${all[n]!.trim().replace(/\s+/g, ' ')}\n`).join('')
  const signedHeaders = names.join(';')
  const query = Object.entries(i.query ?? {}).map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1)).map(([k, v]) => `${k}=${v}`).join('&')
  const canonicalRequest = [i.method, uriEncode(i.path, true), query, canonicalHeaders, signedHeaders, i.payloadHash].join('\n')
  const scope = `${day}/${i.region}/${service}/aws4_request`
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256hex(canonicalRequest)].join('\n')
  const key = hmac(hmac(hmac(hmac(`AWS4${i.secretKey}`, day), i.region), service), 'aws4_request')
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex')
  const headers: Record<string, string> = { ...all }
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${i.accessKey}/${scope},SignedHeaders=${signedHeaders},Signature=${signature}`
  return { headers, canonicalRequest, stringToSign }
}

/** Endpoints of clouds that address buckets as a host name (virtual-hosted style). */
const VIRTUAL_HOSTED = /(^|\.)(amazonaws\.com(\.cn)?|aliyuncs\.com|myqcloud\.com|myhuaweicloud\.com)$/i

/** The region named in a cloud endpoint's host, if any. */
export function regionOf(host: string): string | undefined {
  const m = /^s3[.-]([a-z0-9-]+)\.amazonaws\.com/i.exec(host) ?? /^oss-([a-z0-9-]+)\.aliyuncs\.com/i.exec(host)
    ?? /^obs\.([a-z0-9-]+)\.myhuaweicloud\.com/i.exec(host) ?? /^cos\.([a-z0-9-]+)\.myqcloud\.com/i.exec(host)
  const r = m?.[1]
  return r && r !== 'external-1' ? r : undefined
}

/** An S3 error answer: the status and the error's code (`NoSuchKey`, `SignatureDoesNotMatch`, …). */
export class S3Error extends StorageRefusal {
  constructor(status: number, code: string, message: string) {
    super(status, code, message)
    this.name = 'S3Error'
  }
}

export class S3Client extends HttpReplayBackend {
  private readonly base: URL
  private readonly region: string
  private readonly virtualHosted: boolean
  /** The clock of signatures (tests). */
  now: () => Date = () => new Date()

  get place(): string { return this.config.bucket }

  constructor(readonly config: S3Config) {
    super()
    const raw = config.endpoint.trim()
    this.base = new URL(raw.includes('://') ? raw : `https://${raw}`)
    this.virtualHosted = VIRTUAL_HOSTED.test(this.base.hostname)
    this.region = config.region?.trim() || regionOf(this.base.hostname) || 'us-east-1'
  }

  /** Where an object is: host (with port) and path. */
  private where(key: string): { host: string; path: string } {
    const prefix = this.base.pathname.replace(/\/+$/, '')
    if (this.virtualHosted) return { host: `${this.config.bucket}.${this.base.host}`, path: `${prefix}/${key}` }
    return { host: this.base.host, path: `${prefix}/${this.config.bucket}/${key}` }
  }

  private request(method: string, key: string, o: { payloadHash?: string; headers?: Record<string, string>; body?: () => NodeJS.ReadableStream; length?: number; signal?: AbortSignal } = {}): Promise<IncomingMessage> {
    const { host, path } = this.where(key)
    const signed = signV4({
      method, host, path, headers: o.headers, payloadHash: o.payloadHash ?? EMPTY_SHA256,
      accessKey: this.config.accessKey, secretKey: this.config.secretKey, region: this.region, date: this.now(),
    })
    const headers: Record<string, string> = { ...signed.headers }
    if (o.length !== undefined) headers['content-length'] = String(o.length)
    return sendRequest(this.base, {
      hostname: this.virtualHosted ? `${this.config.bucket}.${this.base.hostname}` : this.base.hostname,
      method, path: uriEncode(path, true), headers, body: o.body, signal: o.signal,
    })
  }

  /** Throws the answer as an S3Error unless it is 2xx; answers it. */
  async ok(res: IncomingMessage): Promise<IncomingMessage> {
    const status = res.statusCode ?? 0
    if (status >= 200 && status < 300) return res
    const text = await refusalText(res)
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? (status === 404 ? 'NotFound' : `HTTP${status}`)
    const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? ''
    throw new S3Error(status, code, message ? `${code}: ${message}` : code)
  }

  /** Uploads a file as `key` (its SHA-256 signed: the peer checks the body it got). */
  async putFile(key: string, file: string, contentType = 'application/octet-stream'): Promise<void> {
    const { size } = await stat(file)
    const hash = createHash('sha256')
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
    const res = await this.ok(await this.request('PUT', key, { payloadHash: hash.digest('hex'), headers: { 'content-type': contentType }, body: () => createReadStream(file), length: size }))
    res.resume()
  }

  /** Uploads a small body. */
  async putBytes(key: string, body: Buffer, contentType = 'application/octet-stream'): Promise<void> {
    const { Readable } = await import('node:stream')
    const payloadHash = createHash('sha256').update(body).digest('hex')
    const res = await this.ok(await this.request('PUT', key, { payloadHash, headers: { 'content-type': contentType }, body: () => Readable.from([body]), length: body.length }))
    res.resume()
  }

  protected send(method: string, key: string, signal?: AbortSignal): Promise<IncomingMessage> {
    return this.request(method, key, { signal })
  }

  protected missing(res: IncomingMessage): boolean {
    return res.statusCode === 404
  }
}

/** The S3 client of a replay storage's meta (secrets opened), or undefined when the kind is not spoken to as S3. */
export function s3ClientOf(type: string, meta: Record<string, unknown>): S3Client | undefined {
  if (!S3_KINDS.has(type)) return undefined
  let endpoint = String(meta.ENDPOINT ?? '')
  // swift's PROTOCOL: the scheme of an endpoint given without one
  if (endpoint && !endpoint.includes('://') && (meta.PROTOCOL === 'http' || meta.PROTOCOL === 'https')) endpoint = `${meta.PROTOCOL}://${endpoint}`
  const bucket = String(meta.BUCKET ?? '')
  if (!endpoint || !bucket) return undefined
  return new S3Client({
    endpoint, bucket, accessKey: String(meta.ACCESS_KEY ?? ''), secretKey: String(meta.SECRET_KEY ?? ''),
    region: typeof meta.REGION === 'string' ? meta.REGION : undefined,
  })
}
