/**
 * Draws the default images the server serves under /static/img/ (`node --import tsx scripts/make-images.ts`):
 * the logo mark, the logo with the product name in white (for the dark header), the favicon, the two avatars and
 * the login picture. Our own simple shapes, drawn here pixel by pixel (4× supersampled) and written as PNG (and
 * ICO holding PNGs) with node:zlib — no artwork from anyone else, no image library. The output is committed
 * under server/static/img/; run this again only to change a picture.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { deflateSync } from 'node:zlib'

type RGBA = [number, number, number, number]
/** A shape: the colour at a point of the unit square [0,1]², or undefined where it leaves the layer below. */
type Shape = (x: number, y: number) => RGBA | undefined

const OUT = join(import.meta.dirname, '..', 'server', 'static', 'img')
const BLUE: RGBA = [22, 93, 255, 255]
const WHITE: RGBA = [255, 255, 255, 255]
const GREY: RGBA = [142, 152, 168, 255]

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(buf: Buffer): number {
  let c = 0xffffffff
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}

/** Renders layers (bottom first) at width × height into an RGBA PNG. */
export function png(width: number, height: number, layers: Shape[], aspect = width / height): Buffer {
  const S = 4
  const raw = Buffer.alloc((width * 4 + 1) * height)
  for (let py = 0; py < height; py++) {
    raw[py * (width * 4 + 1)] = 0
    for (let px = 0; px < width; px++) {
      const acc = [0, 0, 0, 0]
      for (let sy = 0; sy < S; sy++) {
        for (let sx = 0; sx < S; sx++) {
          const x = ((px + (sx + 0.5) / S) / width) * aspect
          const y = (py + (sy + 0.5) / S) / height
          let c: RGBA = [0, 0, 0, 0]
          for (const layer of layers) {
            const l = layer(x, y)
            if (!l) continue
            const a = l[3] / 255
            c = [l[0] * a + c[0] * (1 - a), l[1] * a + c[1] * (1 - a), l[2] * a + c[2] * (1 - a), 255 * (a + (c[3] / 255) * (1 - a))]
          }
          const w = c[3] / 255
          acc[0]! += c[0] * w
          acc[1]! += c[1] * w
          acc[2]! += c[2] * w
          acc[3]! += c[3]
        }
      }
      const o = py * (width * 4 + 1) + 1 + px * 4
      const alpha = acc[3]! / (S * S)
      const wsum = alpha / 255 * S * S
      raw[o] = wsum ? Math.round(acc[0]! / wsum) : 0
      raw[o + 1] = wsum ? Math.round(acc[1]! / wsum) : 0
      raw[o + 2] = wsum ? Math.round(acc[2]! / wsum) : 0
      raw[o + 3] = Math.round(alpha)
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))])
}

/** An ICO file holding PNG images (allowed since Windows Vista, read by every browser). */
export function ico(images: { size: number; data: Buffer }[]): Buffer {
  const head = Buffer.alloc(6 + 16 * images.length)
  head.writeUInt16LE(0, 0)
  head.writeUInt16LE(1, 2)
  head.writeUInt16LE(images.length, 4)
  let offset = head.length
  images.forEach((img, i) => {
    const e = 6 + 16 * i
    head[e] = img.size >= 256 ? 0 : img.size
    head[e + 1] = img.size >= 256 ? 0 : img.size
    head.writeUInt16LE(1, e + 4)
    head.writeUInt16LE(32, e + 6)
    head.writeUInt32LE(img.data.length, e + 8)
    head.writeUInt32LE(offset, e + 12)
    offset += img.data.length
  })
  return Buffer.concat([head, ...images.map((i) => i.data)])
}

const circle = (cx: number, cy: number, r: number, c: RGBA): Shape => (x, y) => ((x - cx) ** 2 + (y - cy) ** 2 <= r * r ? c : undefined)
const ellipse = (cx: number, cy: number, rx: number, ry: number, c: RGBA): Shape => (x, y) => (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1 ? c : undefined)
function roundedSquare(x0: number, y0: number, size: number, r: number, c: RGBA): Shape {
  return (x, y) => {
    if (x < x0 || y < y0 || x > x0 + size || y > y0 + size) return undefined
    const dx = Math.max(x0 + r - x, 0, x - (x0 + size - r))
    const dy = Math.max(y0 + r - y, 0, y - (y0 + size - r))
    return dx * dx + dy * dy <= r * r ? c : undefined
  }
}
/** The mark: a blue rounded square with a white keyhole, in the square [x0, x0+size]². */
function mark(x0: number, y0: number, size: number): Shape[] {
  const at = (u: number) => x0 + u * size
  const aty = (v: number) => y0 + v * size
  const slot: Shape = (x, y) => {
    const v = (y - y0) / size
    const u = (x - x0) / size
    if (v < 0.42 || v > 0.78) return undefined
    const half = 0.07 + (v - 0.42) * 0.25
    return Math.abs(u - 0.5) <= half ? WHITE : undefined
  }
  return [roundedSquare(x0, y0, size, size * 0.22, BLUE), circle(at(0.5), aty(0.38), size * 0.16, WHITE), slot]
}

/** 5×7 capitals for the product name. */
const GLYPHS: Record<string, string[]> = {
  B: ['1111.', '1...1', '1...1', '1111.', '1...1', '1...1', '1111.'],
  A: ['.111.', '1...1', '1...1', '11111', '1...1', '1...1', '1...1'],
  S: ['.1111', '1....', '1....', '.111.', '....1', '....1', '1111.'],
  T: ['11111', '..1..', '..1..', '..1..', '..1..', '..1..', '..1..'],
  I: ['.111.', '..1..', '..1..', '..1..', '..1..', '..1..', '.111.'],
  O: ['.111.', '1...1', '1...1', '1...1', '1...1', '1...1', '.111.'],
  N: ['1...1', '11..1', '1.1.1', '1..11', '1...1', '1...1', '1...1'],
}
function text(word: string, x0: number, y0: number, cell: number, c: RGBA): Shape {
  return (x, y) => {
    const col = Math.floor((x - x0) / cell)
    const row = Math.floor((y - y0) / cell)
    if (col < 0 || row < 0 || row > 6) return undefined
    const letter = word[Math.floor(col / 6)]
    const gx = col % 6
    if (!letter || gx > 4) return undefined
    return GLYPHS[letter]?.[row]?.[gx] === '1' ? c : undefined
  }
}

function avatar(bg: RGBA): Shape[] {
  return [circle(0.5, 0.5, 0.5, bg), circle(0.5, 0.38, 0.17, WHITE), ellipse(0.5, 0.88, 0.3, 0.26, WHITE), (x, y) => ((x - 0.5) ** 2 + (y - 0.5) ** 2 > 0.25 ? [0, 0, 0, 0] : undefined)]
}

function write(name: string, data: Buffer): void {
  const path = join(OUT, name)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, data)
  console.log(`${name}: ${data.length} bytes`)
}

function main(): void {
  write('logo.png', png(128, 128, mark(0.04, 0.04, 0.92)))
  // 440 × 80: the mark, then the name in white (aspect 5.5: x runs 0..5.5, y 0..1; the name ends at 5.25).
  write('logo_text_white.png', png(440, 80, [...mark(0.1, 0.1, 0.8), text('BASTION', 1.15, 0.15, 0.1, WHITE)]))
  write('facio.ico', ico([16, 32, 48].map((size) => ({ size, data: png(size, size, mark(0, 0, 1)) }))))
  write('avatar/user.png', png(128, 128, avatar(GREY)))
  write('avatar/admin.png', png(128, 128, avatar(BLUE)))
  const sky: Shape = (x, y) => [Math.round(22 + 40 * y), Math.round(93 + 60 * y), Math.round(255 - 40 * x / 1.5), 255]
  write('login_image.png', png(600, 400, [sky, ...mark(0.55, 0.3, 0.4)]))
}

main()
