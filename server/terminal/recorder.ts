/**
 * A session's recording: asciicast v2 (a header line with width and height, then `[time, "o", text]` output events
 * and `[time, "r", "COLSxROWS"]` resize events), gzip-compressed as it is written, streamed to a temporary file
 * beside its final place in the replay store. Bounded buffering: events are gathered into one write per
 * ~64 KiB (or per tick); while the compressor has more than `HIGH_WATER` bytes waiting, `writable` is false and
 * the session pauses its source (the host's output) until `drain` — the recorder never holds more than that.
 *
 * The data path's cost (docs/terminal.md, "Throughput"):
 * - Output is turned into JSON without decoding it: valid UTF-8 is read as a byte string (`latin1`), escaped by
 *   JSON.stringify (only `"`, `\` and control characters change) and written back as bytes — the same bytes a
 *   UTF-8 decode and encode would give, without either. Invalid UTF-8 is decoded (U+FFFD), as before.
 * - The compressor adapts to what it is given (`Compression` below): deflate's match search is most of gzip's
 *   cost and finds nothing in high-entropy output (base64, a dump of compressed data), where Huffman coding alone
 *   gives the same size for a quarter of the CPU.
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { isUtf8 } from 'node:buffer'
import { createDeflateRaw, constants, crc32, type DeflateRaw } from 'node:zlib'
import { EventEmitter } from 'node:events'

const HIGH_WATER = 1 << 20
const BATCH = 64 * 1024
/** The zlib level of the recording (matches in a 32 KiB window, short chains: fast, and terminal text compresses well). */
export const LEVEL = 3

/**
 * When to give up deflate's match search for Huffman coding alone (`Z_HUFFMAN_ONLY`), and when to try it again.
 * The recording is judged in windows of `WINDOW` bytes of JSON; each window ends with a sync flush (its exact
 * compressed size; the match history is kept across it). A window compressed with matches to more than
 * `POOR_RATIO` of its size switches to Huffman coding for at most `HUFFMAN_RUN` windows; a Huffman window larger
 * than `TOLERANCE` times the last matched window's ratio goes back at once (and Huffman coding is not tried again
 * for `backoff` windows, doubling up to `MAX_BACKOFF`), and so does one at or below `POOR_RATIO` (the output
 * changed to something more redundant: text, where matches do far better); after the run, one window is matched
 * again to check.
 */
export const COMPRESSION = { WINDOW: 1 << 20, POOR_RATIO: 0.6, TOLERANCE: 1.05, HUFFMAN_RUN: 16, MIN_BACKOFF: 4, MAX_BACKOFF: 64 }

export type CompressionMode = 'match' | 'huffman'

/** The adaptive choice of the compressor's strategy, window after window (pure: tests drive it with ratios). */
export class Compression {
  mode: CompressionMode = 'match'
  private lastMatchRatio = 1
  private huffmanLeft = 0
  private backoff = 0
  private nextBackoff = COMPRESSION.MIN_BACKOFF
  /** Windows compressed in each mode (for tests and the benchmark). */
  readonly windows = { match: 0, huffman: 0 }

  /** A window was compressed to `ratio` of its size in the current mode: the mode of the next window. */
  next(ratio: number): CompressionMode {
    this.windows[this.mode]++
    if (this.mode === 'match') {
      this.lastMatchRatio = ratio
      if (this.backoff > 0) this.backoff--
      else if (ratio > COMPRESSION.POOR_RATIO) {
        this.mode = 'huffman'
        this.huffmanLeft = COMPRESSION.HUFFMAN_RUN
      }
    } else if (ratio > this.lastMatchRatio * COMPRESSION.TOLERANCE) {
      // matches pay here: back to them, and leave Huffman coding alone for a while
      this.mode = 'match'
      this.backoff = this.nextBackoff
      this.nextBackoff = Math.min(this.nextBackoff * 2, COMPRESSION.MAX_BACKOFF)
    } else if (ratio <= COMPRESSION.POOR_RATIO) {
      // the output changed (Huffman coding alone compresses it well: text, where matches do far better)
      this.mode = 'match'
    } else if (--this.huffmanLeft <= 0) {
      this.mode = 'match'
    } else {
      this.nextBackoff = COMPRESSION.MIN_BACKOFF
    }
    return this.mode
  }
}

/** The end of the last complete UTF-8 sequence in `buf` (a sequence cut by the chunk's end starts there). */
function completeEnd(buf: Buffer): number {
  const n = buf.length
  for (let i = n - 1; i >= 0 && i >= n - 3; i--) {
    const b = buf[i]!
    if ((b & 0xc0) === 0x80) continue // a continuation byte: look further back
    const need = b >= 0xf0 && b <= 0xf4 ? 4 : b >= 0xe0 ? 3 : b >= 0xc2 ? 2 : 1
    return i + need > n && b >= 0xc2 && b <= 0xf4 ? i : n
  }
  return n
}

/**
 * `bytes` (UTF-8) as a JSON string literal, as a byte string: each character one byte of the UTF-8 text to write
 * (written with the `latin1` encoding).
 */
export function jsonBytes(bytes: Buffer): string {
  if (isUtf8(bytes)) return JSON.stringify(bytes.toString('latin1'))
  // invalid UTF-8: decoded (replacement characters), then as bytes
  const json = Buffer.from(JSON.stringify(bytes.toString('utf8')), 'utf8')
  return json.toString('latin1')
}

/** zlib's `params` (raw deflate streams have it; @types/node declares it on none). */
interface ZlibParams { params(level: number, strategy: number, callback: () => void): void }

/**
 * The gzip member's header (RFC 1952: deflate, no name, no time, Unix), as Node's gzip writes it. The recording is
 * a raw deflate stream framed by this header and the trailer (CRC-32 and size) because Node's Gzip stream ignores
 * `params()` (it changes only Deflate and DeflateRaw streams), and the strategy changes mid-stream.
 */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03])

export class Recorder extends EventEmitter {
  readonly tempPath: string
  readonly day: string
  /** Raw deflate, framed as gzip by GZIP_HEADER and the trailer. */
  private gzip: DeflateRaw
  private crc = 0
  private file: WriteStream
  /** The end of the last output: a UTF-8 character cut in two, completed by the next output. */
  private carry: Buffer | undefined
  /** Byte strings (see jsonBytes) waiting for the compressor. */
  private pending: string[] = []
  private pendingBytes = 0
  private scheduled = false
  private closed = false
  private readonly started: number
  private done: Promise<void>
  /** false while the compressor's buffer is over the bound: pause the source until 'drain'. */
  writable = true
  readonly compression = new Compression()
  /** Bytes given to the compressor, and out of it, in all and at the current window's start. */
  private bytesIn = 0
  private bytesOut = 0
  private window = { in: 0, out: 0 }
  /** Set while a window ends (a flush, maybe a change of strategy): writes wait for it. */
  private switching: Promise<void> | undefined

  constructor(replayRoot: string, sessionId: string, start: Date, width: number, height: number, private readonly now: () => number = () => performance.now()) {
    super()
    this.day = start.toISOString().slice(0, 10)
    const dir = join(replayRoot, this.day)
    this.tempPath = join(dir, `${sessionId}.cast.gz.${randomUUID()}.part`)
    this.started = now()
    // 128 KiB output chunks: one compressor round trip and one file write per 128 KiB, not per 16 KiB (the default)
    this.gzip = createDeflateRaw({ level: LEVEL, memLevel: 8, flush: constants.Z_NO_FLUSH, chunkSize: 128 * 1024 })
    // The day's folder exists before the stream opens its file: a write stream opens at once (asynchronously), so
    // an asynchronous mkdir started beside it lost the race on a fresh store and the day's first replay was lost.
    mkdirSync(dir, { recursive: true })
    this.file = createWriteStream(this.tempPath, { mode: 0o600, flags: 'w' })
    this.gzip.on('data', (d: Buffer) => (this.bytesOut += d.length))
    this.file.write(GZIP_HEADER)
    this.gzip.pipe(this.file, { end: false })
    this.gzip.on('end', () => {
      const trailer = Buffer.alloc(8)
      trailer.writeUInt32LE(this.crc >>> 0, 0)
      trailer.writeUInt32LE(this.bytesIn % 0x1_0000_0000, 4)
      this.file.end(trailer)
    })
    this.done = new Promise((resolve, reject) => {
      this.file.on('finish', resolve)
      this.file.on('error', reject)
      this.gzip.on('error', reject)
    })
    this.done.catch(() => undefined)
    this.gzip.on('drain', () => this.maybeDrain())
    this.write(JSON.stringify({ version: 2, width, height, timestamp: Math.floor(start.getTime() / 1000), env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } }) + '\n')
  }

  private time(): string {
    return ((this.now() - this.started) / 1000).toFixed(6)
  }

  private push(line: string): void {
    if (this.closed) return
    this.pending.push(line)
    this.pendingBytes += line.length
    if (this.pendingBytes >= BATCH) this.flush()
    else if (!this.scheduled) {
      this.scheduled = true
      setImmediate(() => this.flush())
    }
  }

  private flush(): void {
    this.scheduled = false
    if (!this.pending.length) return
    if (this.switching) {
      // the window's end is being decided: kept (bounded, as the compressor's buffer is)
      if (this.pendingBytes > HIGH_WATER) this.writable = false
      return
    }
    const text = this.pending.length === 1 ? this.pending[0]! : this.pending.join('')
    this.pending = []
    this.pendingBytes = 0
    this.write(text)
    if (this.gzip.writableLength > HIGH_WATER) this.writable = false
    if (!this.closed && this.bytesIn - this.window.in >= COMPRESSION.WINDOW) this.endWindow()
  }

  private write(text: string): void {
    const bytes = Buffer.from(text, 'latin1')
    this.bytesIn += bytes.length
    this.crc = crc32(bytes, this.crc)
    this.gzip.write(bytes)
  }

  private maybeDrain(): void {
    if (!this.writable && !this.switching && this.gzip.writableLength <= HIGH_WATER && this.pendingBytes <= HIGH_WATER) {
      this.writable = true
      this.emit('drain')
    }
  }

  /** A window ends: a sync flush gives its compressed size; the strategy for the next one follows. */
  private endWindow(): void {
    this.switching = new Promise<void>((resolve) => {
      this.gzip.flush(constants.Z_SYNC_FLUSH, () => {
        // everything written so far went through the compressor, and its output is counted or waits in its buffer
        const produced = this.bytesOut + this.gzip.readableLength
        const ratio = (produced - this.window.out) / Math.max(1, this.bytesIn - this.window.in)
        const before = this.compression.mode
        const mode = this.compression.next(ratio)
        const resume = () => {
          this.window = { in: this.bytesIn, out: this.bytesOut + this.gzip.readableLength }
          this.switching = undefined
          resolve()
          this.flush()
          this.maybeDrain()
        }
        if (mode === before || this.gzip.destroyed) resume()
        else (this.gzip as DeflateRaw & ZlibParams).params(LEVEL, mode === 'huffman' ? constants.Z_HUFFMAN_ONLY : constants.Z_DEFAULT_STRATEGY, resume)
      })
    })
  }

  output(data: Buffer): void {
    if (this.closed || !data.length) return
    let buf = this.carry ? Buffer.concat([this.carry, data]) : data
    const end = completeEnd(buf)
    this.carry = end < buf.length ? Buffer.from(buf.subarray(end)) : undefined
    buf = buf.subarray(0, end)
    if (buf.length) this.push(`[${this.time()},"o",${jsonBytes(buf)}]\n`)
  }

  resize(cols: number, rows: number): void {
    this.push(`[${this.time()},"r",${JSON.stringify(`${cols}x${rows}`)}]\n`)
  }

  /** Ends the recording; answers the temporary file's path (complete and closed). */
  async finish(): Promise<string> {
    if (!this.closed) {
      if (this.carry) this.push(`[${this.time()},"o",${jsonBytes(this.carry)}]\n`)
      this.carry = undefined
      this.closed = true
      while (this.switching) await this.switching
      this.flush()
      this.gzip.end()
    }
    await this.done
    return this.tempPath
  }

  /**
   * Pushes what was recorded so far to the file as a complete deflate block (Z_SYNC_FLUSH): if the process dies,
   * the file then holds every event up to here and can be salvaged (live.ts). Called with the session's lease
   * renewal, so it costs little compression.
   */
  checkpoint(): void {
    if (this.closed) return
    this.flush()
    // a window's end is a sync flush itself (and the compressor takes no other write until its strategy is set)
    if (!this.switching) this.gzip.flush(constants.Z_SYNC_FLUSH)
  }

  async discard(): Promise<void> {
    this.closed = true
    this.gzip.destroy()
    this.file.destroy()
    await rm(this.tempPath, { force: true })
  }
}
