import { useEffect, useRef, type RefObject } from 'react'
import type { InputName } from './loginState.ts'

/**
 * Refs for the step's inputs; whenever `seq` changes, the input named by `focus` gets focus (and its text
 * is selected, so a retyped value replaces it).
 */
export function useFocusRequest(focus: InputName, seq: number): Record<InputName, RefObject<HTMLInputElement | null>> {
  const refs = { username: useRef<HTMLInputElement>(null), password: useRef<HTMLInputElement>(null), code: useRef<HTMLInputElement>(null) }
  const target = refs[focus]
  useEffect(() => {
    const el = target.current
    if (!el) return
    el.focus()
    el.select()
  }, [seq, target])
  return refs
}
