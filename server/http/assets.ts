import { createHash } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { extname, resolve, sep } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { chooseEncoding } from './compress.ts'

/**
 * The built console's files (`dist/`), served from memory (docs/architecture.md, "First visit"). A first visit asks
 * for about ten of them while the same two cores parse and run the console, so each costs what a look-up costs: the
 * file, its brotli and gzip copies made at build time and its headers are read once and kept while the file is
 * unchanged (size and modification time, checked on each request: a rebuild under a running server is seen). Files
 * over `maxFileBytes`, and any once the store holds `maxTotalBytes`, are read from disk for each request instead,
 * so memory stays bounded whatever `dist/` holds.
 *
 * HTML pages get their Content-Security-Policy here: the page's inline scripts (the early start-up script, written
 * into index.html by the build) are allowed by their SHA-256, never by 'unsafe-inline'.
 */

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
}

interface Copy {
  body: Buffer
  etag: string
}

interface Entry {
  key: string
  type: string
  lastModified: string
  copies: { identity: Copy; br?: Copy; gzip?: Copy }
  /** bytes held for this file (all copies) */
  bytes: number
  /** hashes of an HTML page's inline scripts, for its CSP */
  scriptHashes: string[]
}

export interface AssetStoreOptions {
  /** a file larger than this is not kept (default 4 MB) */
  maxFileBytes?: number
  /** the store keeps no more than this in all (default 48 MB) */
  maxTotalBytes?: number
}

export interface ServeOptions {
  cacheControl: string
  /** builds the page's Content-Security-Policy from its inline scripts' hashes (HTML only) */
  csp?: (scriptHashes: string[]) => string
}

/** `'sha256-…'` sources for the inline `<script>` elements (no `src`) of a page. */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = []
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (/\bsrc\s*=/i.test(m[1]!) || !m[2]) continue
    hashes.push(`'sha256-${createHash('sha256').update(m[2], 'utf8').digest('base64')}'`)
  }
  return hashes
}

function readOptional(path: string): Buffer | undefined {
  try {
    return readFileSync(path)
  } catch {
    return undefined
  }
}

export function createAssetStore(root: string, options: AssetStoreOptions = {}) {
  const base = resolve(root)
  const maxFile = options.maxFileBytes ?? 4 * 1024 * 1024
  const maxTotal = options.maxTotalBytes ?? 48 * 1024 * 1024
  const entries = new Map<string, Entry>()
  let total = 0

  /** The file's absolute path when `relative` names a file inside the root; undefined otherwise. */
  function locate(relative: string): string | undefined {
    if (relative.includes('\0')) return undefined
    const path = resolve(base, `.${sep}${relative}`)
    return path.startsWith(base + sep) ? path : undefined
  }

  function load(path: string, size: number, mtimeMs: number): Entry {
    const key = `${size}-${Math.floor(mtimeMs)}`
    const type = TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
    const body = readFileSync(path)
    const tag = (suffix: string) => `"${key}${suffix}"`
    const copies: Entry['copies'] = { identity: { body, etag: tag('') } }
    // Copies made at build time where they are worth it (scripts/vite-plugins.ts); an HTML page (small, rewritten by
    // each build) is compressed here once instead of on each request.
    let br = readOptional(`${path}.br`)
    let gz = readOptional(`${path}.gz`)
    if (type.startsWith('text/html') && body.length >= 1024) {
      br ??= brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      gz ??= gzipSync(body, { level: 9 })
    }
    if (br && br.length < body.length) copies.br = { body: br, etag: tag('-br') }
    if (gz && gz.length < body.length) copies.gzip = { body: gz, etag: tag('-gz') }
    const bytes = body.length + (copies.br?.body.length ?? 0) + (copies.gzip?.body.length ?? 0)
    const scriptHashes = type.startsWith('text/html') ? inlineScriptHashes(body.toString('utf8')) : []
    return { key, type, lastModified: new Date(mtimeMs).toUTCString(), copies, bytes, scriptHashes }
  }

  /** The file's entry, read or re-read as needed; undefined when there is no such file. */
  function entry(relative: string): Entry | undefined {
    const path = locate(relative)
    if (!path) return undefined
    let stat
    try {
      stat = statSync(path)
    } catch {
      return undefined
    }
    if (!stat.isFile()) return undefined
    const key = `${stat.size}-${Math.floor(stat.mtimeMs)}`
    const held = entries.get(path)
    if (held?.key === key) return held
    if (held) {
      entries.delete(path)
      total -= held.bytes
    }
    const fresh = load(path, stat.size, stat.mtimeMs)
    if (stat.size <= maxFile && total + fresh.bytes <= maxTotal) {
      entries.set(path, fresh)
      total += fresh.bytes
    }
    return fresh
  }

  return {
    /** Answers with the file (200, or 304 for a matching If-None-Match); false when there is no such file. */
    serve(req: FastifyRequest, reply: FastifyReply, relative: string, opts: ServeOptions): FastifyReply | false {
      const found = entry(relative)
      if (!found) return false
      const { copies } = found
      const encoding = copies.br || copies.gzip ? chooseEncoding(req.headers['accept-encoding']) : undefined
      const copy = (encoding === 'br' ? copies.br : encoding === 'gzip' ? copies.gzip : undefined) ?? copies.identity
      reply.header('Content-Type', found.type)
      reply.header('Cache-Control', opts.cacheControl)
      reply.header('Last-Modified', found.lastModified)
      reply.header('ETag', copy.etag)
      if (copies.br || copies.gzip) reply.header('Vary', 'Accept-Encoding')
      if (copy !== copies.identity) reply.header('Content-Encoding', encoding!)
      if (opts.csp) reply.header('Content-Security-Policy', opts.csp(found.scriptHashes))
      const match = req.headers['if-none-match']
      if (match && match.split(',').some((t) => t.trim().replace(/^W\//, '') === copy.etag)) return reply.status(304).send()
      reply.header('Content-Length', copy.body.length)
      return reply.status(200).send(copy.body)
    },
    /** bytes held (for tests) */
    heldBytes: () => total,
  }
}

export type AssetStore = ReturnType<typeof createAssetStore>
