import { useSyncExternalStore } from 'react'

const QUERY = '(prefers-color-scheme: dark)'

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => {}
  const media = window.matchMedia(QUERY)
  media.addEventListener('change', onChange)
  return () => media.removeEventListener('change', onChange)
}

const prefersDark = (): boolean => typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches

/** True while the system asks for a dark colour scheme; follows changes live. */
export function usePrefersDark(): boolean {
  return useSyncExternalStore(subscribe, prefersDark, () => false)
}
