/**
 * The bounded screen feed (screen-feed.ts): whatever it skips, the screen it leaves is the screen every byte would
 * have left — compared by serializing two headless terminals, one fed every byte, one fed through ScreenFeed.
 */
import { describe, expect, it } from 'vitest'
import xtermHeadless from '@xterm/headless'
import { SerializeAddon } from '@xterm/addon-serialize'
import { ScreenFeed, skippable } from './screen-feed.ts'

const { Terminal } = xtermHeadless
const SCROLLBACK = 200

function screen(cols = 80, rows = 24) {
  const term = new Terminal({ cols, rows, scrollback: SCROLLBACK, allowProposedApi: true })
  const ser = new SerializeAddon()
  term.loadAddon(ser)
  const text = () => new Promise<string>((resolve) => term.write('', () => resolve(ser.serialize({ scrollback: SCROLLBACK }))))
  return { term, text }
}

/** Feeds `chunks` to a terminal byte for byte and to another through a ScreenFeed (in windows of `per` chunks). */
async function both(chunks: Buffer[], per = 40, cols = 80, rows = 24) {
  const full = screen(cols, rows)
  const fed = screen(cols, rows)
  const feed = new ScreenFeed(fed.term, SCROLLBACK, 60_000)
  chunks.forEach((c, i) => {
    full.term.write(c)
    feed.write(c)
    if ((i + 1) % per === 0) feed.flush()
  })
  feed.flush()
  const [a, b] = await Promise.all([full.text(), fed.text()])
  const cursor = (t: typeof full) => [t.term.buffer.active.cursorX, t.term.buffer.active.cursorY, t.term.buffer.active.baseY, t.term.buffer.active.type]
  feed.dispose()
  return { full: a, fed: b, skipped: feed.skipped, cursors: [cursor(full), cursor(fed)] }
}

const split = (b: Buffer, size = 32 * 1024) => {
  const out: Buffer[] = []
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size))
  return out
}

const lines = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_x, i) => `${f(i)}\r\n`).join('')

describe('ScreenFeed', () => {
  it('skips the middle of bulk text and leaves the same screen, scrollback and cursor', async () => {
    const out = Buffer.from(`\x1b[32muser@host\x1b[0m:~$ cat big.txt\r\n${lines(20_000, (i) => `line ${i} ${'x'.repeat(i % 70)}`)}\x1b[1muser@host\x1b[0m:~$ `)
    const r = await both(split(out))
    expect(r.skipped).toBeGreaterThan(out.length / 2)
    expect(r.fed).toBe(r.full)
    expect(r.cursors[1]).toEqual(r.cursors[0])
    expect(r.fed).toContain('line 19999')
  })

  it('keeps UTF-8 split across chunks and wide characters right', async () => {
    const out = Buffer.from(lines(12_000, (i) => `行 ${i} — ünïcödé 🙂 ${'é'.repeat(i % 30)}`))
    const r = await both(split(out, 4099), 200)
    expect(r.skipped).toBeGreaterThan(0)
    expect(r.fed).toBe(r.full)
  })

  it('skips nothing when the middle holds an escape sequence (the alternate screen, a colour)', async () => {
    const out = Buffer.from(`${lines(5_000, (i) => `a ${i}`)}\x1b[?1049h\x1b[Hfull screen${lines(5_000, (i) => `b ${i}`)}`)
    const r = await both([out])
    expect(r.skipped).toBe(0)
    expect(r.fed).toBe(r.full)
    expect(r.cursors[1]![3]).toBe('alternate')
  })

  it('skips nothing without enough whole lines after the cut (one long line)', () => {
    const out = Buffer.from('y'.repeat(600 * 1024))
    expect(skippable(out, 225)).toBeUndefined()
  })

  it('does not cut after a head that ends inside an escape sequence', () => {
    const head = Buffer.from(`${'h'.repeat(4090)}\x1b[3`)
    const out = Buffer.concat([head, Buffer.from(`1m${lines(10_000, (i) => `t ${i}`)}`)])
    expect(skippable(out, 225)).toBeUndefined()
  })

  it('skips nothing when a C1 control (UTF-8 C2 9B, a CSI) is in the middle', () => {
    const out = Buffer.concat([Buffer.from(lines(5_000, (i) => `a ${i}`)), Buffer.from([0xc2, 0x9b, 0x32, 0x4a]), Buffer.from(lines(5_000, (i) => `b ${i}`))])
    expect(skippable(out, 225)).toBeUndefined()
    expect(skippable(Buffer.from(lines(10_000, (i) => `a ${i}`)), 225)).toBeDefined()
  })

  it('writes a trickle at once and gathers a burst until its window ends or the screen is read', async () => {
    const fed = screen()
    const feed = new ScreenFeed(fed.term, SCROLLBACK, 60_000)
    feed.write(Buffer.from('typed'))
    // gathered: a window is open after the first write
    feed.write(Buffer.from('\r\nmore'))
    expect(await fed.text()).toBe('typed')
    feed.flush()
    expect(await fed.text()).toBe('typed\r\nmore')
    feed.dispose()
  })
})
