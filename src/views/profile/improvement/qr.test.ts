import { describe, expect, it } from 'vitest'
import { alignmentPositions, encodeQr, formatBits, gfExp, gfMul, reedSolomon, versionBits, versionInfo } from './qr.ts'

// ---------------------------------------------------------------------------------------------- a minimal decoder
// Written independently of the encoder's drawing code: it finds the function modules from the standard's
// layout rules, reads the format bits from the matrix, unmasks, reads the zig-zag, de-interleaves, checks
// every block's Reed–Solomon syndromes and parses the byte-mode segment.

const MASKS: ((r: number, c: number) => boolean)[] = [
  (r, c) => (r + c) % 2 === 0,
  (r) => r % 2 === 0,
  (_, c) => c % 3 === 0,
  (r, c) => (r + c) % 3 === 0,
  (r, c) => (Math.floor(r / 2) + Math.floor(c / 3)) % 2 === 0,
  (r, c) => ((r * c) % 2) + ((r * c) % 3) === 0,
  (r, c) => (((r * c) % 2) + ((r * c) % 3)) % 2 === 0,
  (r, c) => (((r + c) % 2) + ((r * c) % 3)) % 2 === 0,
]

function reserved(version: number): boolean[][] {
  const size = 17 + 4 * version
  const f = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
  const box = (r0: number, c0: number, h: number, w: number) => {
    for (let r = r0; r < r0 + h; r++) for (let c = c0; c < c0 + w; c++) f[r]![c] = true
  }
  box(0, 0, 9, 9)
  box(0, size - 8, 9, 8)
  box(size - 8, 0, 8, 9)
  for (let i = 0; i < size; i++) f[6]![i] = f[i]![6] = true
  const pos = alignmentPositions(version)
  const inFinder = (r: number, c: number) => (r < 9 && c < 9) || (r < 9 && c >= size - 8) || (r >= size - 8 && c < 9)
  for (const r of pos) for (const c of pos) if (!inFinder(r, c)) box(r - 2, c - 2, 5, 5)
  if (version >= 7) {
    box(0, size - 11, 6, 3)
    box(size - 11, 0, 3, 6)
  }
  return f
}

function decode(m: boolean[][]): { text: string; mask: number } {
  const size = m.length
  const version = (size - 17) / 4
  // Format bits, first copy: row 8 columns 0-5,7,8 then column 8 rows 7,5..0 (bit 14 first).
  const seq = [m[8]![0], m[8]![1], m[8]![2], m[8]![3], m[8]![4], m[8]![5], m[8]![7], m[8]![8], m[7]![8], m[5]![8], m[4]![8], m[3]![8], m[2]![8], m[1]![8], m[0]![8]]
  const format = seq.reduce((acc, b) => (acc << 1) | (b ? 1 : 0), 0) ^ 0x5412
  expect(format >> 13).toBe(0) // level M
  const mask = (format >> 10) & 7
  const f = reserved(version)
  const bits: number[] = []
  let upward = true
  for (let col = size - 1; col > 0; col -= 2) {
    if (col === 6) col--
    for (let k = 0; k < size; k++) {
      const r = upward ? size - 1 - k : k
      for (const c of [col, col - 1]) {
        if (f[r]![c]) continue
        bits.push((m[r]![c] !== MASKS[mask]!(r, c)) ? 1 : 0)
      }
    }
    upward = !upward
  }
  const info = versionInfo(version)
  const total = info.dataCodewords + info.ecPerBlock * info.blocks.length
  const bytes: number[] = []
  for (let i = 0; i < total; i++) bytes.push(bits.slice(i * 8, i * 8 + 8).reduce((a, b) => (a << 1) | b, 0))
  const blocks = info.blocks.map(() => [] as number[])
  let at = 0
  for (let i = 0; i < Math.max(...info.blocks); i++) info.blocks.forEach((len, b) => i < len && blocks[b]!.push(bytes[at++]!))
  const data = blocks.map((b) => [...b])
  for (let i = 0; i < info.ecPerBlock; i++) blocks.forEach((b) => b.push(bytes[at++]!))
  for (const block of blocks) {
    for (let i = 0; i < info.ecPerBlock; i++) {
      const syndrome = block.reduce((acc, c) => gfMul(acc, gfExp(i)) ^ c, 0)
      expect(syndrome).toBe(0)
    }
  }
  const stream = data.flat().flatMap((b) => Array.from({ length: 8 }, (_, i) => (b >> (7 - i)) & 1))
  const read = (n: number) => stream.splice(0, n).reduce((a, b) => (a << 1) | b, 0)
  expect(read(4)).toBe(0b0100)
  const count = read(version < 10 ? 8 : 16)
  const out = new Uint8Array(count)
  for (let i = 0; i < count; i++) out[i] = read(8)
  return { text: new TextDecoder().decode(out), mask }
}

describe('QR encoder', () => {
  it('computes Reed–Solomon codewords like the standard\u2019s worked example (1-M "HELLO WORLD")', () => {
    const data = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
    expect(reedSolomon(data, 10)).toEqual([196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
  })

  it('produces the standard format and version strings', () => {
    const fmt = (mask: number) => formatBits(mask).toString(2).padStart(15, '0')
    expect(fmt(0)).toBe('101010000010010')
    expect(fmt(1)).toBe('101000100100101')
    expect(fmt(7)).toBe('100101010100000')
    expect(versionBits(7).toString(2).padStart(18, '0')).toBe('000111110010010100')
    expect(versionBits(8).toString(2).padStart(18, '0')).toBe('001000010110111100')
  })

  it.each([
    ['short', 'otpauth://x'],
    ['an OTP URI', 'otpauth://totp/JumpServer:admin?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=JumpServer'],
    ['non-ASCII text', 'otpauth://totp/堡垒机:管理员?secret=ABCDEFGHIJKLMNOP&issuer=%E5%A0%A1'],
    ['a long URI (version 7+)', `otpauth://totp/Issuer:${'u'.repeat(90)}?secret=${'A'.repeat(32)}&issuer=Issuer`],
    ['the largest that fits', 'x'.repeat(213)],
  ])('round-trips %s through an independent decoder', (_label, text) => {
    const qr = encodeQr(text)!
    expect(qr).not.toBeNull()
    expect(qr.modules).toHaveLength(17 + 4 * qr.version)
    const decoded = decode(qr.modules)
    expect(decoded.mask).toBe(qr.mask)
    expect(decoded.text).toBe(text)
    // Finder pattern corners and the dark module.
    const size = qr.modules.length
    for (const [r, c] of [[0, 0], [0, size - 1], [size - 1, 0], [size - 8, 8]] as const) expect(qr.modules[r]![c]).toBe(true)
  })

  it('says when the text does not fit', () => {
    expect(encodeQr('x'.repeat(214))).toBeNull()
  })
})
