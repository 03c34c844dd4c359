import { afterEach, describe, expect, it, vi } from 'vitest'
import { mediaMatches, mediaQueryList, subscribeMedia } from './media.ts'

/** A `matchMedia` whose lists can be flipped, counting how many lists it built. */
function fakeMatchMedia() {
  const built: { query: string; matches: boolean; listeners: Set<() => void> }[] = []
  const matchMedia = vi.fn((query: string) => {
    const entry = { query, matches: false, listeners: new Set<() => void>() }
    built.push(entry)
    return {
      get matches() { return entry.matches },
      addEventListener: (_: string, l: () => void) => entry.listeners.add(l),
      removeEventListener: (_: string, l: () => void) => entry.listeners.delete(l),
    } as unknown as MediaQueryList
  })
  const flip = (query: string, matches: boolean) => {
    for (const e of built.filter((b) => b.query === query)) {
      e.matches = matches
      e.listeners.forEach((l) => l())
    }
  }
  return { matchMedia, built, flip }
}

describe('media queries read from React', () => {
  const original = window.matchMedia
  afterEach(() => {
    window.matchMedia = original
  })

  it('builds one list per query however often it is read', () => {
    const fake = fakeMatchMedia()
    window.matchMedia = fake.matchMedia
    for (let i = 0; i < 5; i++) mediaMatches('(max-width: 10px)')
    expect(mediaQueryList('(max-width: 10px)')).toBe(mediaQueryList('(max-width: 10px)'))
    expect(fake.matchMedia).toHaveBeenCalledTimes(1)
    fake.flip('(max-width: 10px)', true)
    expect(mediaMatches('(max-width: 10px)')).toBe(true) // the kept list answers live
  })

  it('gives one subscribe function per query, which reports changes until unsubscribed', () => {
    const fake = fakeMatchMedia()
    window.matchMedia = fake.matchMedia
    const subscribe = subscribeMedia('(min-width: 20px)')
    expect(subscribeMedia('(min-width: 20px)')).toBe(subscribe)
    expect(subscribeMedia('(min-width: 30px)')).not.toBe(subscribe)
    const onChange = vi.fn()
    const stop = subscribe(onChange)
    fake.flip('(min-width: 20px)', true)
    expect(onChange).toHaveBeenCalledTimes(1)
    stop()
    fake.flip('(min-width: 20px)', false)
    expect(onChange).toHaveBeenCalledTimes(1)
  })
})
