/**
 * What the session's headless screen is fed (docs/terminal.md, "Bounded screen feeding"). The headless xterm reads
 * command lines and redraws the screen on a re-attach (and for a monitor); parsing every byte of bulk output
 * (`cat` of a large file) was most of the data path's CPU. Output is therefore written to the screen as it comes
 * when it is a trickle (typing, prompts), and gathered during a burst: every `windowMs` the gathered output is
 * written at once, and when it is large only its head and a tail of whole lines are parsed — the middle is
 * skipped when skipping it cannot change the screen:
 * - the middle is plain text: no ESC, no SO/SI, no C1 control (UTF-8 `C2 80`–`C2 9F`) — nothing that changes a
 *   mode, a charset, the cursor's position otherwise than text does, the title or the alternate screen;
 * - the tail starts with `\r\n` (column 0 whatever came before) and holds at least `rows + scrollback + 1` line
 *   feeds, so every line of the screen and of its scrollback is written again from the tail, and the cursor
 *   reaches the same row (a line feed on the last row scrolls);
 * - the head (the first `HEAD_BYTES`, ending on a character boundary) is parsed in full, so an escape sequence or a
 *   UTF-8 character begun in the previous output is finished, and it must not end inside a new escape sequence.
 * Otherwise everything is parsed. Whoever reads the screen calls `flush()` first (the reader of command lines, the
 * re-attach's serialize, a resize), so what it reads is the screen after all output so far.
 */
import type xtermHeadless from '@xterm/headless'

type HeadlessTerminal = InstanceType<typeof xtermHeadless.Terminal>

/** Output of one window below this is written whole. */
const COMPACT_MIN_BYTES = 256 * 1024
/** The head of a window's output that is always parsed. */
const HEAD_BYTES = 4 * 1024
/** A single write below this, with nothing gathered, goes to the screen at once (typing, prompts). */
const TRICKLE_BYTES = 16 * 1024

export class ScreenFeed {
  private pending: Buffer[] = []
  private pendingBytes = 0
  private timer?: NodeJS.Timeout
  /** Bytes of output not parsed because they could not change the screen (for tests and the benchmark). */
  skipped = 0

  constructor(
    private readonly screen: HeadlessTerminal,
    private readonly scrollback: number,
    private readonly windowMs = 50,
  ) {}

  /** Output of the host for the screen. */
  write(d: Buffer): void {
    if (!this.timer && d.length < TRICKLE_BYTES) {
      // a trickle: straight to the screen, and a window opens in case a burst follows
      this.screen.write(d)
      this.open()
      return
    }
    this.pending.push(d)
    this.pendingBytes += d.length
    this.open()
  }

  private open(): void {
    if (this.timer) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      if (this.pendingBytes) {
        this.flush()
        this.open()
      }
    }, this.windowMs)
    this.timer.unref()
  }

  /** Writes what was gathered to the screen (bounded as above); the screen's parse of it is queued. */
  flush(): void {
    if (!this.pendingBytes) return
    const all = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes)
    this.pending = []
    this.pendingBytes = 0
    const cut = all.length >= COMPACT_MIN_BYTES ? skippable(all, this.screen.rows + this.scrollback + 1) : undefined
    if (!cut) {
      this.screen.write(all)
      return
    }
    this.skipped += cut.end - cut.start
    this.screen.write(all.subarray(0, cut.start))
    this.screen.write(all.subarray(cut.end))
  }

  dispose(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.pending = []
    this.pendingBytes = 0
  }
}

/**
 * The part [start, end) of `buf` that can be left unparsed (see the module's comment), or undefined. `lines`: the
 * line feeds the tail must hold.
 */
export function skippable(buf: Buffer, lines: number): { start: number; end: number } | undefined {
  // the head: HEAD_BYTES, extended to a character boundary
  let start = Math.min(HEAD_BYTES, buf.length)
  while (start < buf.length && (buf[start]! & 0xc0) === 0x80) start++
  // …and not ending inside an escape sequence begun near its end (CSI and short sequences end within 64 bytes)
  const esc = buf.lastIndexOf(0x1b, start - 1)
  if (esc >= 0 && esc >= start - 64) return undefined
  // the tail: back from the end to the `lines`-th line feed, then to a CR LF
  let lf = buf.length
  for (let n = 0; n < lines; n++) {
    lf = buf.lastIndexOf(0x0a, lf - 1)
    if (lf <= start) return undefined
  }
  while (buf[lf - 1] !== 0x0d) {
    lf = buf.lastIndexOf(0x0a, lf - 1)
    if (lf <= start) return undefined
  }
  const end = lf - 1
  if (end - start < HEAD_BYTES) return undefined
  // the middle is plain text
  const middle = buf.subarray(start, end)
  if (middle.indexOf(0x1b) >= 0 || middle.indexOf(0x0e) >= 0 || middle.indexOf(0x0f) >= 0) return undefined
  for (let i = middle.indexOf(0xc2); i >= 0; i = middle.indexOf(0xc2, i + 1)) {
    const next = middle[i + 1]
    if (next === undefined || (next >= 0x80 && next <= 0x9f)) return undefined
  }
  return { start, end }
}
