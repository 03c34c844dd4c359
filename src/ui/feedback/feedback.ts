/**
 * The console's global feedback: error toasts go through the shared notice store (`ui/common/notify`), and the
 * re-login question (spec 000 §8: 401) is asked here, once however many calls failed at the same time.
 */
import { notify } from '../common/notify.tsx'

type Listener = () => void

let relogin = false
const listeners = new Set<Listener>()
const emit = () => listeners.forEach((l) => l())

const recent = new Map<string, number>()
const SAME_ERROR_MS = 2000

/** A red notice for 5 seconds (spec 000 §8); the same text from several calls failing together shows once. */
export function showError(text: string, now = Date.now()): boolean {
  const last = recent.get(text)
  if (last !== undefined && now - last < SAME_ERROR_MS) return false
  recent.set(text, now)
  notify('error', text)
  return true
}

export function askRelogin(): void {
  if (relogin) return
  relogin = true
  emit()
}

export function closeRelogin(): void {
  relogin = false
  emit()
}

export function subscribeRelogin(listener: Listener): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export const isReloginAsked = () => relogin
