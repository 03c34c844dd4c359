/**
 * A small QR Code encoder (ISO/IEC 18004) for the OTP binding URI: byte mode, error correction level M,
 * versions 1–10 (up to 213 bytes — an `otpauth://` URI is about 100). Returns the module matrix
 * (`true` = dark), or null when the text is too long.
 */

// [ec codewords per block, blocks in group 1, data codewords per block in group 1, blocks in group 2 (one more each)]
const BLOCKS_M: readonly (readonly [number, number, number, number])[] = [
  [10, 1, 16, 0], [16, 1, 28, 0], [26, 1, 44, 0], [18, 2, 32, 0], [24, 2, 43, 0],
  [16, 4, 27, 0], [18, 4, 31, 0], [22, 2, 38, 2], [22, 3, 36, 2], [26, 4, 43, 1],
]
const ALIGNMENT: readonly (readonly number[])[] = [
  [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
]
/** Format bits of level M. */
const EC_LEVEL_M = 0
export const MAX_VERSION = 10

// ---------------------------------------------------------------------------------------------- GF(256)

const EXP = new Uint8Array(512)
const LOG = new Uint8Array(256)
{
  let x = 1
  for (let i = 0; i < 255; i++) {
    EXP[i] = x
    LOG[x] = i
    x <<= 1
    if (x & 0x100) x ^= 0x11d
  }
  for (let i = 255; i < 512; i++) EXP[i] = EXP[i - 255]!
}
export const gfMul = (a: number, b: number): number => (a === 0 || b === 0 ? 0 : EXP[LOG[a]! + LOG[b]!]!)
export const gfExp = (i: number): number => EXP[i % 255]!

/** Generator polynomial of degree n, coefficients from the highest power (leading 1 omitted). */
function generator(n: number): number[] {
  let poly = [1]
  for (let i = 0; i < n; i++) {
    const next = new Array<number>(poly.length + 1).fill(0)
    poly.forEach((c, j) => {
      next[j] = next[j]! ^ c
      next[j + 1] = next[j + 1]! ^ gfMul(c, gfExp(i))
    })
    poly = next
  }
  return poly.slice(1)
}

/** Reed–Solomon error-correction codewords of a block. */
export function reedSolomon(data: readonly number[], ecLength: number): number[] {
  const gen = generator(ecLength)
  const rem = new Array<number>(ecLength).fill(0)
  for (const byte of data) {
    const factor = byte ^ rem.shift()!
    rem.push(0)
    gen.forEach((g, i) => (rem[i] = rem[i]! ^ gfMul(g, factor)))
  }
  return rem
}

// ---------------------------------------------------------------------------------------------- layout facts

export interface VersionInfo {
  version: number
  size: number
  ecPerBlock: number
  blocks: number[]
  dataCodewords: number
}

export function versionInfo(version: number): VersionInfo {
  const [ec, g1, d1, g2] = BLOCKS_M[version - 1]!
  const blocks = [...Array<number>(g1).fill(d1), ...Array<number>(g2).fill(d1 + 1)]
  return { version, size: 17 + 4 * version, ecPerBlock: ec, blocks, dataCodewords: blocks.reduce((a, b) => a + b, 0) }
}

export function alignmentPositions(version: number): readonly number[] {
  return ALIGNMENT[version - 1]!
}

/** 15 format bits (level M, mask) with their BCH code and the standard XOR mask. */
export function formatBits(mask: number): number {
  const data = (EC_LEVEL_M << 3) | mask
  let rem = data
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537)
  return ((data << 10) | (rem & 0x3ff)) ^ 0x5412
}

/** 18 version bits (versions 7+). */
export function versionBits(version: number): number {
  let rem = version
  for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25)
  return (version << 12) | (rem & 0xfff)
}

const bit = (x: number, i: number) => ((x >>> i) & 1) !== 0

// ---------------------------------------------------------------------------------------------- encoding

function dataCodewords(bytes: Uint8Array, info: VersionInfo): number[] {
  const bits: number[] = []
  const put = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1)
  }
  put(0b0100, 4)
  put(bytes.length, info.version < 10 ? 8 : 16)
  bytes.forEach((b) => put(b, 8))
  const capacity = info.dataCodewords * 8
  put(0, Math.min(4, capacity - bits.length))
  while (bits.length % 8) bits.push(0)
  const out: number[] = []
  for (let i = 0; i < bits.length; i += 8) out.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0))
  for (let pad = 0xec; out.length < info.dataCodewords; pad ^= 0xec ^ 0x11) out.push(pad)
  return out
}

/** Data and EC codewords of every block, interleaved column by column. */
export function interleave(data: readonly number[], info: VersionInfo): number[] {
  const blocks: number[][] = []
  let at = 0
  for (const length of info.blocks) {
    blocks.push(data.slice(at, at + length))
    at += length
  }
  const ecs = blocks.map((b) => reedSolomon(b, info.ecPerBlock))
  const out: number[] = []
  const longest = Math.max(...info.blocks)
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.length) out.push(b[i]!)
  for (let i = 0; i < info.ecPerBlock; i++) for (const e of ecs) out.push(e[i]!)
  return out
}

type Grid = boolean[][]

class Matrix {
  readonly modules: Grid
  readonly isFunction: Grid
  constructor(readonly size: number) {
    this.modules = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
    this.isFunction = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
  }
  set(x: number, y: number, dark: boolean) {
    this.modules[y]![x] = dark
    this.isFunction[y]![x] = true
  }
}

function drawFunctionPatterns(m: Matrix, version: number) {
  const { size } = m
  for (let i = 0; i < size; i++) {
    m.set(6, i, i % 2 === 0)
    m.set(i, 6, i % 2 === 0)
  }
  const finder = (cx: number, cy: number) => {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx
        const y = cy + dy
        if (x < 0 || y < 0 || x >= size || y >= size) continue
        const d = Math.max(Math.abs(dx), Math.abs(dy))
        m.set(x, y, d !== 2 && d !== 4)
      }
    }
  }
  finder(3, 3)
  finder(size - 4, 3)
  finder(3, size - 4)
  const pos = alignmentPositions(version)
  const last = pos.length - 1
  pos.forEach((cy, i) =>
    pos.forEach((cx, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) m.set(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1)
    }),
  )
  drawFormat(m, 0) // reserves the format areas; redrawn with the chosen mask
  if (version >= 7) {
    const bits = versionBits(version)
    for (let i = 0; i < 18; i++) {
      const a = size - 11 + (i % 3)
      const b = Math.floor(i / 3)
      m.set(a, b, bit(bits, i))
      m.set(b, a, bit(bits, i))
    }
  }
}

function drawFormat(m: Matrix, mask: number) {
  const bits = formatBits(mask)
  const { size } = m
  for (let i = 0; i <= 5; i++) m.set(8, i, bit(bits, i))
  m.set(8, 7, bit(bits, 6))
  m.set(8, 8, bit(bits, 7))
  m.set(7, 8, bit(bits, 8))
  for (let i = 9; i < 15; i++) m.set(14 - i, 8, bit(bits, i))
  for (let i = 0; i < 8; i++) m.set(size - 1 - i, 8, bit(bits, i))
  for (let i = 8; i < 15; i++) m.set(8, size - 15 + i, bit(bits, i))
  m.set(8, size - 8, true)
}

/** Visits the data modules in placement order (two-column zig-zag from the bottom right). */
export function forEachDataModule(isFunction: Grid, visit: (x: number, y: number) => void) {
  const size = isFunction.length
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5
    for (let vert = 0; vert < size; vert++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j
        const upward = ((right + 1) & 2) === 0
        const y = upward ? size - 1 - vert : vert
        if (!isFunction[y]![x]) visit(x, y)
      }
    }
  }
}

export function maskApplies(mask: number, x: number, y: number): boolean {
  switch (mask) {
    case 0: return (x + y) % 2 === 0
    case 1: return y % 2 === 0
    case 2: return x % 3 === 0
    case 3: return (x + y) % 3 === 0
    case 4: return (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0
    case 5: return ((x * y) % 2) + ((x * y) % 3) === 0
    case 6: return (((x * y) % 2) + ((x * y) % 3)) % 2 === 0
    default: return (((x + y) % 2) + ((x * y) % 3)) % 2 === 0
  }
}

function applyMask(m: Matrix, mask: number) {
  for (let y = 0; y < m.size; y++) {
    for (let x = 0; x < m.size; x++) {
      if (!m.isFunction[y]![x] && maskApplies(mask, x, y)) m.modules[y]![x] = !m.modules[y]![x]
    }
  }
}

/** The standard penalty score (runs, 2×2 blocks, finder-like patterns, dark balance). */
export function penalty(grid: Grid): number {
  const size = grid.length
  let score = 0
  const line = (get: (i: number) => boolean) => {
    let run = 1
    for (let i = 1; i <= size; i++) {
      if (i < size && get(i) === get(i - 1)) run++
      else {
        if (run >= 5) score += 3 + (run - 5)
        run = 1
      }
    }
    for (let i = 0; i + 11 <= size; i++) {
      const s = Array.from({ length: 11 }, (_, k) => (get(i + k) ? '1' : '0')).join('')
      if (s === '10111010000' || s === '00001011101') score += 40
    }
  }
  for (let y = 0; y < size; y++) line((i) => grid[y]![i]!)
  for (let x = 0; x < size; x++) line((i) => grid[i]![x]!)
  for (let y = 0; y < size - 1; y++) {
    for (let x = 0; x < size - 1; x++) {
      const c = grid[y]![x]
      if (c === grid[y]![x + 1] && c === grid[y + 1]![x] && c === grid[y + 1]![x + 1]) score += 3
    }
  }
  const dark = grid.reduce((n, row) => n + row.filter(Boolean).length, 0)
  score += 10 * Math.floor(Math.abs((dark * 100) / (size * size) - 50) / 5)
  return score
}

export interface QrCode {
  version: number
  mask: number
  modules: Grid
}

/** Encodes `text` (UTF-8); null when it does not fit version 10-M. */
export function encodeQr(text: string): QrCode | null {
  const bytes = new TextEncoder().encode(text)
  let info: VersionInfo | undefined
  for (let v = 1; v <= MAX_VERSION; v++) {
    const candidate = versionInfo(v)
    const needed = 4 + (v < 10 ? 8 : 16) + bytes.length * 8
    if (needed <= candidate.dataCodewords * 8 && bytes.length < (v < 10 ? 256 : 65536)) {
      info = candidate
      break
    }
  }
  if (!info) return null
  const codewords = interleave(dataCodewords(bytes, info), info)
  let best: QrCode | null = null
  let bestScore = Infinity
  for (let mask = 0; mask < 8; mask++) {
    const m = new Matrix(info.size)
    drawFunctionPatterns(m, info.version)
    let i = 0
    forEachDataModule(m.isFunction, (x, y) => {
      m.modules[y]![x] = i < codewords.length * 8 ? bit(codewords[i >>> 3]!, 7 - (i & 7)) : false
      i++
    })
    applyMask(m, mask)
    drawFormat(m, mask)
    const score = penalty(m.modules)
    if (score < bestScore) {
      bestScore = score
      best = { version: info.version, mask, modules: m.modules }
    }
  }
  return best
}

/** An SVG path drawing the dark modules, with a 4-module quiet zone: `viewBox` is `0 0 size+8 size+8`. */
export function qrPath(modules: Grid): string {
  const parts: string[] = []
  modules.forEach((row, y) => row.forEach((dark, x) => dark && parts.push(`M${x + 4} ${y + 4}h1v1h-1z`)))
  return parts.join('')
}
