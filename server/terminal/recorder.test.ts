import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import { COMPRESSION, Compression, jsonBytes, Recorder } from './recorder.ts'

const dirs: string[] = []
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true })
})

async function record(feed: (r: Recorder) => Promise<void> | void): Promise<{ lines: unknown[][]; header: Record<string, unknown>; recorder: Recorder; size: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'recorder-'))
  dirs.push(dir)
  let clock = 0
  const r = new Recorder(dir, 'session', new Date('2026-11-27T10:00:00Z'), 80, 24, () => (clock += 10))
  await feed(r)
  const file = await readFile(await r.finish())
  // gunzip checks the trailer's CRC-32 and size: the raw deflate stream is framed as one gzip member
  const [head, ...events] = gunzipSync(file).toString('utf8').trimEnd().split('\n')
  return { header: JSON.parse(head!) as Record<string, unknown>, lines: events.map((l) => JSON.parse(l) as unknown[]), recorder: r, size: file.length }
}

const outputOf = (lines: unknown[][]) => lines.filter((l) => l[1] === 'o').map((l) => l[2]).join('')

describe('jsonBytes', () => {
  it('is JSON.stringify of the decoded text, as bytes', () => {
    for (const text of ['plain', 'quotes " and \\ backslash', 'ctrl \x1b[31mred\x1b[0m \r\n \t \x00 \x7f', 'ünïcödé 中文 😀', '']) {
      const bytes = Buffer.from(text, 'utf8')
      expect(Buffer.from(jsonBytes(bytes), 'latin1').toString('utf8')).toBe(JSON.stringify(text))
    }
  })

  it('decodes invalid UTF-8 with replacement characters', () => {
    const bytes = Buffer.from([0x61, 0xff, 0x62, 0xc3])
    expect(JSON.parse(Buffer.from(jsonBytes(bytes), 'latin1').toString('utf8'))).toBe('a\ufffdb\ufffd')
  })
})

describe('Recorder', () => {
  it('writes a gzip asciicast v2: header, output events (characters cut between chunks kept whole), resize events', async () => {
    const text = 'héllo wörld — 中文 😀 "quoted" \\ \x1b[1mbold\x1b[0m\r\n'
    const bytes = Buffer.from(text.repeat(50), 'utf8')
    const { header, lines } = await record((r) => {
      // chunks of 7 bytes cut most multi-byte characters in two
      for (let i = 0; i < bytes.length; i += 7) r.output(bytes.subarray(i, i + 7))
      r.resize(100, 30)
      r.output(Buffer.from('after'))
    })
    expect(header).toMatchObject({ version: 2, width: 80, height: 24, timestamp: Date.parse('2026-11-27T10:00:00Z') / 1000 })
    expect(outputOf(lines)).toBe(text.repeat(50) + 'after')
    expect(lines.some((l) => l[1] === 'o' && String(l[2]).includes('\ufffd'))).toBe(false)
    expect(lines.find((l) => l[1] === 'r')).toEqual([expect.any(Number), 'r', '100x30'])
    const times = lines.map((l) => l[0] as number)
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it('keeps a character cut at the very end of the session (as a replacement)', async () => {
    const { lines } = await record((r) => r.output(Buffer.from([0x61, 0xe4, 0xb8])))
    expect(outputOf(lines)).toBe('a\ufffd')
  })

  it('compresses high-entropy output with Huffman coding alone, compressible output with matches, and replays both', async () => {
    const entropic = Buffer.from(randomBytes(3 * COMPRESSION.WINDOW).toString('base64').replace(/(.{100})/g, '$1\r\n'))
    const listing = Buffer.from(Array.from({ length: 60_000 }, (_, i) => `-rw-r--r-- 1 root root ${(i * 37) % 100000} Nov 27 12:${String(i % 60).padStart(2, '0')} file-${i}.log\r\n`).join(''))
    const feed = async (r: Recorder, b: Buffer) => {
      for (let i = 0; i < b.length; i += 64 * 1024) {
        r.output(b.subarray(i, i + 64 * 1024))
        if (!r.writable) await new Promise((resolve) => r.once('drain', resolve))
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    const { lines, recorder, size } = await record(async (r) => {
      await feed(r, entropic)
      await feed(r, listing)
    })
    expect(outputOf(lines)).toBe(entropic.toString('latin1') + listing.toString('latin1'))
    expect(recorder.compression.windows.huffman).toBeGreaterThan(0)
    expect(recorder.compression.windows.match).toBeGreaterThan(0)
    // the listing compressed with matches: far smaller than Huffman coding alone would make it (~0.6 of its size)
    expect(size).toBeLessThan(entropic.length * 0.8 + listing.length * 0.3)
  })
})

describe('Compression (the strategy, window after window)', () => {
  it('stays with matches while they pay', () => {
    const c = new Compression()
    for (let i = 0; i < 10; i++) expect(c.next(0.2)).toBe('match')
  })

  it('switches to Huffman coding on a poor window, runs it, then checks matches again', () => {
    const c = new Compression()
    expect(c.next(0.76)).toBe('huffman')
    for (let i = 1; i < COMPRESSION.HUFFMAN_RUN; i++) expect(c.next(0.76)).toBe('huffman')
    expect(c.next(0.76)).toBe('match')
    expect(c.next(0.76)).toBe('huffman')
  })

  it('goes back to matches when the output changes to something Huffman coding alone compresses well', () => {
    const c = new Compression()
    expect(c.next(0.76)).toBe('huffman')
    expect(c.next(0.76)).toBe('huffman')
    expect(c.next(0.55)).toBe('match')
    expect(c.next(0.12)).toBe('match')
  })

  it('goes back to matches when Huffman coding loses, and backs off before trying again', () => {
    const c = new Compression()
    expect(c.next(0.65)).toBe('huffman')
    expect(c.next(0.8)).toBe('match')
    for (let i = 0; i < COMPRESSION.MIN_BACKOFF; i++) expect(c.next(0.65)).toBe('match')
    expect(c.next(0.65)).toBe('huffman')
    expect(c.next(0.8)).toBe('match')
    // the back-off doubled
    for (let i = 0; i < COMPRESSION.MIN_BACKOFF * 2; i++) expect(c.next(0.65)).toBe('match')
    expect(c.next(0.65)).toBe('huffman')
  })
})
