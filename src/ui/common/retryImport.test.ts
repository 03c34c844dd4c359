import { describe, expect, it, vi } from 'vitest'
import { failedChunkUrl, RELOAD_MARK, retryImport, type ChunkEnvironment } from './retryImport.ts'

describe('retryImport', () => {
  it('tries a failed chunk again after each delay and answers the first success', async () => {
    vi.useFakeTimers()
    try {
      let calls = 0
      const load = vi.fn(async () => {
        calls += 1
        if (calls < 3) throw new TypeError('Failed to fetch dynamically imported module')
        return { default: 'module' }
      })
      const result = retryImport(load, [100, 200, 400])
      await vi.advanceTimersByTimeAsync(99)
      expect(load).toHaveBeenCalledTimes(1)
      await vi.advanceTimersByTimeAsync(1)
      expect(load).toHaveBeenCalledTimes(2)
      await vi.advanceTimersByTimeAsync(200)
      await expect(result).resolves.toEqual({ default: 'module' })
      expect(load).toHaveBeenCalledTimes(3)
    } finally {
      vi.useRealTimers()
    }
  })

  it('gives the last error after the last try', async () => {
    vi.useFakeTimers()
    try {
      const load = vi.fn(async () => { throw new TypeError(`failed ${load.mock.calls.length}`) })
      const result = retryImport(load, [10, 10])
      const seen = expect(result).rejects.toThrow('failed 3')
      await vi.advanceTimersByTimeAsync(20)
      await seen
      expect(load).toHaveBeenCalledTimes(3)
    } finally {
      vi.useRealTimers()
    }
  })

  const CHUNK = 'http://127.0.0.1:8080/ui/assets/Drawer-abc123.js'
  const chunkError = () => new TypeError(`Failed to fetch dynamically imported module: ${CHUNK}`)
  function environment(reachableAfter: number, stored: Record<string, string> = {}, then: 'ok' | 'missing' = 'ok') {
    let clock = 1_000_000
    let probes = 0
    const env: ChunkEnvironment & { reloads: number; probes: () => number; stored: Record<string, string> } = {
      reloads: 0,
      stored,
      probes: () => probes,
      probe: async (url) => {
        expect(url).toBe(CHUNK)
        probes += 1
        return probes > reachableAfter ? then : 'down'
      },
      reload: () => { env.reloads += 1 },
      storage: { getItem: (k) => stored[k] ?? null, setItem: (k, v) => { stored[k] = v } },
      now: () => clock,
      sleep: async (ms) => { clock += ms },
    }
    return env
  }

  it('names the file of a failed chunk', () => {
    expect(failedChunkUrl(chunkError())).toBe(CHUNK)
    expect(failedChunkUrl(new Error('Unable to preload CSS for http://h/ui/assets/a-1.css'))).toBe('http://h/ui/assets/a-1.css')
    expect(failedChunkUrl(new Error('boom'))).toBeUndefined()
  })

  it('waits until the server answers again, then imports the chunk again', async () => {
    const env = environment(3)
    let calls = 0
    const load = vi.fn(async () => {
      calls += 1
      if (calls === 1) throw chunkError()
      return 'module'
    })
    await expect(retryImport(load, [10], env)).resolves.toBe('module')
    expect(env.probes()).toBe(4)
    expect(load).toHaveBeenCalledTimes(2)
    expect(env.reloads).toBe(0)
  })

  it('reloads the page once when the document keeps the failed chunk although the server answers', async () => {
    const env = environment(0)
    const load = vi.fn(async () => { throw chunkError() })
    let settled = false
    void retryImport(load, [10], env).finally(() => { settled = true })
    await vi.waitFor(() => expect(env.reloads).toBe(1))
    expect(settled).toBe(false) // the page is going away: nothing renders an error meanwhile
    expect(env.stored[RELOAD_MARK]).toBe('1000000')

    // After the reload (the mark is fresh) the same failure gives its error instead of another reload.
    const again = environment(0, { [RELOAD_MARK]: '1000000' })
    await expect(retryImport(load, [10], again)).rejects.toThrow('Failed to fetch dynamically imported module')
    expect(again.reloads).toBe(0)
  })

  it('reloads the page once when the server came back with another build (the chunk is gone)', async () => {
    const env = environment(2, {}, 'missing')
    const load = vi.fn(async () => { throw chunkError() })
    void retryImport(load, [10], env)
    await vi.waitFor(() => expect(env.reloads).toBe(1))
    expect(load).toHaveBeenCalledTimes(1)
    const again = environment(0, { [RELOAD_MARK]: '1000000' }, 'missing')
    await expect(retryImport(load, [10], again)).rejects.toThrow(CHUNK)
    expect(again.reloads).toBe(0)
  })

  it('gives the error when the server does not come back', async () => {
    const env = environment(Number.POSITIVE_INFINITY)
    await expect(retryImport(async () => { throw chunkError() }, [10], env)).rejects.toThrow(CHUNK)
    expect(env.reloads).toBe(0)
    expect(env.probes()).toBeGreaterThan(100)
  })
})
