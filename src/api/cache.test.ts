import { afterEach, describe, expect, it, vi } from 'vitest'
import { ensure, FRESH_MS, invalidate, peek, subscribe, type CacheQuery } from './cache.ts'

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

let n = 0
/** A query whose runs are counted and answered by hand. */
function counted(key = `k${++n}`, keep = false) {
  const runs: ReturnType<typeof deferred<string>>[] = []
  const query: CacheQuery<string> = { key, keep, run: () => { const d = deferred<string>(); runs.push(d); return d.promise } }
  return { query, runs }
}

afterEach(() => {
  vi.useRealTimers()
  invalidate(() => true)
})

describe('answer cache', () => {
  it('asks once for callers that come while a request is under way (loader, then component)', async () => {
    const { query, runs } = counted()
    const first = ensure(query)
    const second = ensure(query)
    expect(runs).toHaveLength(1)
    expect(peek(query.key)?.status).toBe('loading')
    runs[0]!.resolve('A')
    await Promise.all([first, second])
    expect(peek(query.key)).toMatchObject({ status: 'ok', data: 'A' })
  })

  it('keeps an answer fresh for a while, then shows it while asking again (back/forward)', async () => {
    vi.useFakeTimers()
    const { query, runs } = counted()
    const p = ensure(query)
    runs[0]!.resolve('A')
    await p
    await ensure(query)
    expect(runs).toHaveLength(1)
    vi.advanceTimersByTime(FRESH_MS + 1)
    await ensure(query) // resolves at once: the stale answer is there
    expect(runs).toHaveLength(2)
    expect(peek(query.key)).toMatchObject({ status: 'loading', data: 'A' })
    runs[1]!.resolve('B')
    await runs[1]!.promise
    expect(peek(query.key)).toMatchObject({ status: 'ok', data: 'B' })
  })

  it('keeps failures in the snapshot (never rejects) and asks again at the next load', async () => {
    const { query, runs } = counted()
    const p = ensure(query)
    runs[0]!.reject(new Error('down'))
    await p
    expect(peek(query.key)).toMatchObject({ status: 'error', error: new Error('down') })
    void ensure(query)
    void ensure(query, { force: true })
    expect(runs).toHaveLength(2)
  })

  it('drops data (not metadata) on a write, and asks again for what is on screen', async () => {
    const data = counted()
    const meta = counted(undefined, true)
    const watched = counted()
    for (const q of [data, meta, watched]) {
      const p = ensure(q.query)
      q.runs[0]!.resolve('A')
      await p
    }
    const stop = subscribe(watched.query.key, () => {})
    invalidate()
    expect(peek(data.query.key)).toBeUndefined()
    expect(peek(meta.query.key)?.data).toBe('A')
    expect(watched.runs).toHaveLength(2)
    expect(peek(watched.query.key)).toMatchObject({ status: 'loading', data: 'A' })
    stop()
  })

  it('ignores an answer that arrives after the entry was dropped', async () => {
    const { query, runs } = counted()
    const stop = subscribe(query.key, () => {})
    void ensure(query)
    invalidate()
    runs[0]!.resolve('old')
    runs[1]!.resolve('new')
    await runs[1]!.promise
    await Promise.resolve()
    expect(peek(query.key)?.data).toBe('new')
    stop()
  })
})
