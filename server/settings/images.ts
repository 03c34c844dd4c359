/**
 * Image settings (interface logos, favicon, the OAuth2 logo): declared with type `image` (OPTIONS type
 * `image upload`). A write sends the new image as a data URL (`data:image/png;base64,…`); the server checks its
 * size (at most MAX_IMAGE_BYTES) and its content (the bytes must be a PNG, JPEG, GIF, WebP or ICO image: SVG is
 * refused, it may carry scripts), keeps it in `setting_images` and stores the setting as the image's URL
 * `/media/settings/<KEY>/<sha256 prefix>.<ext>`, served to anyone (the login page shows them) with a long cache
 * (the name changes with the content). Sending the current URL keeps the image; null or '' restores the default.
 */
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { DB } from '../db/connection.ts'
import type { Ctx, FieldDef } from '../engine/types.ts'
import { tr } from '../i18n.ts'

export const MAX_IMAGE_BYTES = 512 * 1024
export const IMAGE_URL_PREFIX = '/media/settings/'

/** A validated upload, stored by the settings write. */
export class UploadedImage {
  constructor(readonly bytes: Buffer, readonly contentType: string, readonly ext: string) {}
  get sha(): string {
    return createHash('sha256').update(this.bytes).digest('hex').slice(0, 16)
  }
}

const KINDS: { type: string; ext: string; test: (b: Buffer) => boolean }[] = [
  { type: 'image/png', ext: 'png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { type: 'image/jpeg', ext: 'jpg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { type: 'image/gif', ext: 'gif', test: (b) => /^GIF8[79]a$/.test(b.subarray(0, 6).toString('latin1')) },
  { type: 'image/webp', ext: 'webp', test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
  { type: 'image/x-icon', ext: 'ico', test: (b) => b.length > 6 && b[0] === 0 && b[1] === 0 && b[2] === 1 && b[3] === 0 && (b[4] ?? 0) + (b[5] ?? 0) > 0 },
]

const DATA_URL = /^data:([a-z0-9.+/-]+)?(;[a-z0-9=-]+)*;base64,([A-Za-z0-9+/=\s]*)$/i
/** URLs a form sends back unchanged: the defaults and stored images. */
const KEPT_URL = /^\/(static\/img|media\/settings)\/[A-Za-z0-9_./-]{1,200}$/
export const NOT_AN_IMAGE = 'Upload a valid image. The file you uploaded was either not an image or a corrupted image.'
export const IMAGE_TOO_LARGE = 'The image is too large: at most {n} KB.'

/** Reads a data URL into a checked image, or an error (English, translated by the caller's ctx). */
export function parseImage(raw: unknown, ctx: Ctx, current?: string): { value: unknown } | { error: string } {
  if (typeof raw !== 'string') return { error: tr(ctx.lang, NOT_AN_IMAGE) }
  const text = raw.trim()
  if (text === '') return { value: null }
  // the value already stored (a form sends back what it read): unchanged
  if (!text.startsWith('data:')) {
    if (text === current || (KEPT_URL.test(text) && !text.includes('..'))) return { value: text }
    return { error: tr(ctx.lang, NOT_AN_IMAGE) }
  }
  // 4 base64 characters per 3 bytes: refuse before decoding what cannot fit
  if (text.length > Math.ceil(MAX_IMAGE_BYTES / 3) * 4 + 256) return { error: tr(ctx.lang, IMAGE_TOO_LARGE, { n: MAX_IMAGE_BYTES / 1024 }) }
  const m = DATA_URL.exec(text)
  if (!m) return { error: tr(ctx.lang, NOT_AN_IMAGE) }
  const bytes = Buffer.from((m[3] ?? '').replace(/\s+/g, ''), 'base64')
  if (bytes.length > MAX_IMAGE_BYTES) return { error: tr(ctx.lang, IMAGE_TOO_LARGE, { n: MAX_IMAGE_BYTES / 1024 }) }
  const kind = bytes.length >= 12 ? KINDS.find((k) => k.test(bytes)) : undefined
  if (!kind) return { error: tr(ctx.lang, NOT_AN_IMAGE) }
  return { value: new UploadedImage(bytes, kind.type, kind.ext) }
}

/** An image setting's declaration. */
export const imageField = (name: string, label: string, def: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  name, type: 'image', label, default: def, required: false, allow_null: true,
  help_text: 'PNG, JPEG, GIF, WebP or ICO, at most 512 KB', parse: (raw, ctx) => parseImage(raw, ctx), ...extra,
})

/** Stores an upload (inside the settings write's transaction) and answers its URL. */
export async function storeImage(tx: DB, name: string, img: UploadedImage): Promise<string> {
  const file = `${img.sha}.${img.ext}`
  await sql`insert into setting_images (name, file, content_type, data, date_created)
    values (${name}, ${file}, ${img.contentType}, ${img.bytes}, now())
    on conflict (name) do update set file = excluded.file, content_type = excluded.content_type, data = excluded.data, date_created = now()`.execute(tx)
  return `${IMAGE_URL_PREFIX}${name}/${file}`
}

export function registerSettingImages(app: FastifyInstance): void {
  app.get<{ Params: { name: string; file: string } }>(`${IMAGE_URL_PREFIX}:name/:file`, async (req, reply) => {
    const { name, file } = req.params
    if (name.length > 128 || file.length > 64) return reply.code(404).send({ detail: 'Not found.' })
    const row = (await sql<{ content_type: string; data: Buffer | Uint8Array }>`
      select content_type, data from setting_images where name = ${name} and file = ${file}`.execute(req.ctx.db)).rows[0]
    if (!row) return reply.code(404).send({ detail: 'Not found.' })
    return reply
      .header('content-type', row.content_type)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(Buffer.from(row.data))
  })
}
