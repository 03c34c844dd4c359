import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'

const brotli = promisify(brotliCompress)
const gz = promisify(gzip)

/** Answers smaller than this go as they are: compressing them costs more than it saves. */
export const COMPRESS_MIN_BYTES = 1024
/**
 * Brotli quality 4 and gzip level 6: a list page of 20 users (≈14 KB of JSON) compresses to about a sixth in well
 * under a millisecond; brotli's best quality (11) is for build time only (scripts/vite-plugins.ts). Both run on
 * libuv's thread pool, not on the event loop.
 */
const BROTLI_QUALITY = 4
const GZIP_LEVEL = 6
const COMPRESSIBLE_TYPE = /^(application\/(json|javascript|xml)|text\/)/i

/** The encoding to answer with for an `Accept-Encoding` header: brotli, else gzip, else none (q=0 refuses). */
export function chooseEncoding(accept: string | undefined): 'br' | 'gzip' | undefined {
  if (!accept) return undefined
  const offered = new Map<string, number>()
  for (const part of accept.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    if (!name) continue
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    offered.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1)
  }
  const ok = (e: string) => (offered.get(e) ?? offered.get('*') ?? 0) > 0
  if (ok('br')) return 'br'
  if (ok('gzip')) return 'gzip'
  return undefined
}

/**
 * `onSend` hook: compresses the server's own string and Buffer answers above `COMPRESS_MIN_BYTES` (JSON, CSV,
 * text), by the request's `Accept-Encoding`. Streams (static files, which have precompressed copies; proxied
 * answers), answers already encoded, and HEAD/204/304 go as they are.
 */
export async function compressAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload
  if (req.method === 'HEAD' || reply.statusCode === 204 || reply.statusCode === 304) return payload
  if (reply.hasHeader('content-encoding')) return payload
  const type = String(reply.getHeader('content-type') ?? '')
  if (!COMPRESSIBLE_TYPE.test(type)) return payload
  const body = typeof payload === 'string' ? Buffer.from(payload) : payload
  const vary = String(reply.getHeader('vary') ?? '')
  if (!/accept-encoding/i.test(vary)) reply.header('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding')
  if (body.length < COMPRESS_MIN_BYTES) return payload
  const encoding = chooseEncoding(req.headers['accept-encoding'])
  if (!encoding) return payload
  const compressed = encoding === 'br'
    ? await brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
    : await gz(body, { level: GZIP_LEVEL })
  reply.header('Content-Encoding', encoding)
  reply.removeHeader('content-length')
  return compressed
}
