import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CHROME_WAIT_MS, useChromeAfterPage } from './Shell.tsx'

describe('the shell chrome after the first page (issue 17, first visit)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('waits for the frame after a page that is ready with the shell, then stays', async () => {
    const { result, rerender } = renderHook(({ shown }) => useChromeAfterPage(shown), { initialProps: { shown: true } })
    expect(result.current).toBe(false)
    await act(async () => {
      vi.advanceTimersToNextFrame()
    })
    expect(result.current).toBe(false) // painted first: the chrome comes in a task after the frame
    await act(async () => {
      vi.advanceTimersByTime(1)
    })
    expect(result.current).toBe(true)
    rerender({ shown: false }) // another page loading later: the chrome stays
    expect(result.current).toBe(true)
  })

  it('does not wait longer than CHROME_WAIT_MS for a page still loading', async () => {
    const { result } = renderHook(() => useChromeAfterPage(false))
    await act(async () => {
      vi.advanceTimersByTime(CHROME_WAIT_MS - 1)
    })
    expect(result.current).toBe(false)
    await act(async () => {
      vi.advanceTimersByTime(1)
    })
    expect(result.current).toBe(true)
  })

  it('asks for the chrome\'s code after the painted page, or at once while the page still loads', async () => {
    const loadAfterPage = vi.fn()
    renderHook(() => useChromeAfterPage(true, loadAfterPage))
    expect(loadAfterPage).not.toHaveBeenCalled() // the page's frame is not held up by a chunk request
    await act(async () => {
      vi.advanceTimersToNextFrame()
      vi.advanceTimersByTime(1)
    })
    expect(loadAfterPage).toHaveBeenCalledTimes(1)
    const loadWhileLoading = vi.fn()
    renderHook(() => useChromeAfterPage(false, loadWhileLoading))
    expect(loadWhileLoading).toHaveBeenCalledTimes(1) // nothing to draw yet: the download starts with the shell
  })

  it('draws after the page when the page comes within the wait', async () => {
    const { result, rerender } = renderHook(({ shown }) => useChromeAfterPage(shown), { initialProps: { shown: false } })
    await act(async () => {
      vi.advanceTimersByTime(CHROME_WAIT_MS / 2)
    })
    rerender({ shown: true })
    expect(result.current).toBe(false)
    await act(async () => {
      vi.advanceTimersByTime(CHROME_WAIT_MS) // the first wait was dropped: only the frame and its task remain
    })
    expect(result.current).toBe(true)
  })
})
