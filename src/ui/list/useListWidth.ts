/**
 * The width a list has for its table, followed as the window or the layout changes: measured before the first
 * paint (a layout effect) and then by a ResizeObserver. Until measured it is the last list's width, so a
 * navigation between lists of one layout fits its columns in its first render; 0 (nothing measured, as in jsdom)
 * means unknown.
 */
import { useLayoutEffect, useState, type RefObject } from 'react'

let lastWidth = 0

export function useListWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(lastWidth)
  useLayoutEffect(() => {
    const el = ref.current
    if (!el) return undefined
    const measure = () => {
      const w = Math.floor(el.clientWidth)
      if (w > 0) lastWidth = w
      setWidth(w)
    }
    measure()
    if (typeof ResizeObserver !== 'function') return undefined
    const observer = new ResizeObserver(measure)
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref])
  return width
}
