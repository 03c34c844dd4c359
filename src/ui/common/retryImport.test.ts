import { describe, expect, it, vi } from 'vitest'
import { retryImport } from './retryImport.ts'

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
})
