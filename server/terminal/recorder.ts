/**
 * A session's recording: asciicast v2 (a header line with width and height, then `[time, "o", text]` output events
 * and `[time, "r", "COLSxROWS"]` resize events), gzip-compressed as it is written, streamed to a temporary file
 * beside its final place in the replay store. Bounded buffering: events are gathered into one write per
 * ~64 KiB (or per tick); while the compressor has more than `HIGH_WATER` bytes waiting, `writable` is false and
 * the session pauses its source (the host's output) until `drain` — the recorder never holds more than that.
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { createGzip, constants, type Gzip } from 'node:zlib'
import { EventEmitter } from 'node:events'

const HIGH_WATER = 1 << 20
const BATCH = 64 * 1024

export class Recorder extends EventEmitter {
  readonly tempPath: string
  readonly day: string
  private gzip: Gzip
  private file: WriteStream
  private decoder = new StringDecoder('utf8')
  private pending: string[] = []
  private pendingBytes = 0
  private scheduled = false
  private closed = false
  private readonly started: number
  private done: Promise<void>
  /** false while the compressor's buffer is over the bound: pause the source until 'drain'. */
  writable = true

  constructor(replayRoot: string, sessionId: string, start: Date, width: number, height: number, private readonly now: () => number = () => performance.now()) {
    super()
    this.day = start.toISOString().slice(0, 10)
    const dir = join(replayRoot, this.day)
    this.tempPath = join(dir, `${sessionId}.cast.gz.${randomUUID()}.part`)
    this.started = now()
    // 128 KiB output chunks: one compressor round trip and one file write per 128 KiB, not per 16 KiB (the default)
    this.gzip = createGzip({ level: 3, memLevel: 8, flush: constants.Z_NO_FLUSH, chunkSize: 128 * 1024 })
    // The day's folder exists before the stream opens its file: a write stream opens at once (asynchronously), so
    // an asynchronous mkdir started beside it lost the race on a fresh store and the day's first replay was lost.
    mkdirSync(dir, { recursive: true })
    this.file = createWriteStream(this.tempPath, { mode: 0o600, flags: 'w' })
    this.gzip.pipe(this.file)
    this.done = new Promise((resolve, reject) => {
      this.file.on('finish', resolve)
      this.file.on('error', reject)
      this.gzip.on('error', reject)
    })
    this.done.catch(() => undefined)
    this.gzip.on('drain', () => {
      if (!this.writable) {
        this.writable = true
        this.emit('drain')
      }
    })
    this.gzip.write(JSON.stringify({ version: 2, width, height, timestamp: Math.floor(start.getTime() / 1000), env: { TERM: 'xterm-256color', SHELL: '/bin/bash' } }) + '\n')
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
    const text = this.pending.join('')
    this.pending = []
    this.pendingBytes = 0
    this.gzip.write(text)
    if (this.gzip.writableLength > HIGH_WATER) this.writable = false
  }

  output(data: Buffer): void {
    const text = this.decoder.write(data)
    if (text) this.push(`[${this.time()},"o",${JSON.stringify(text)}]\n`)
  }

  resize(cols: number, rows: number): void {
    this.push(`[${this.time()},"r",${JSON.stringify(`${cols}x${rows}`)}]\n`)
  }

  /** Ends the recording; answers the temporary file's path (complete and closed). */
  async finish(): Promise<string> {
    if (!this.closed) {
      const rest = this.decoder.end()
      if (rest) this.push(`[${this.time()},"o",${JSON.stringify(rest)}]\n`)
      this.flush()
      this.closed = true
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
    this.gzip.flush(constants.Z_SYNC_FLUSH)
  }

  async discard(): Promise<void> {
    this.closed = true
    this.gzip.destroy()
    this.file.destroy()
    await rm(this.tempPath, { force: true })
  }
}
