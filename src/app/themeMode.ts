/** Light / dark / system theme choice, remembered in the browser (`themeMode`). */
import { useSyncExternalStore } from 'react'
import type { ThemeMode } from './theme.ts'

export const THEME_MODE_KEY = 'themeMode'
const DARK_QUERY = '(prefers-color-scheme: dark)'
const listeners = new Set<() => void>()

export function readThemeMode(): ThemeMode {
  const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(THEME_MODE_KEY)
  return v === 'light' || v === 'dark' ? v : 'system'
}

export function setThemeMode(mode: ThemeMode): void {
  if (mode === 'system') localStorage.removeItem(THEME_MODE_KEY)
  else localStorage.setItem(THEME_MODE_KEY, mode)
  listeners.forEach((l) => l())
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  const mql = window.matchMedia?.(DARK_QUERY)
  mql?.addEventListener('change', listener)
  return () => {
    listeners.delete(listener)
    mql?.removeEventListener('change', listener)
  }
}

/** The scheme the chosen mode resolves to now (outside React). */
export function currentScheme(): 'light' | 'dark' {
  const mode = readThemeMode()
  return mode === 'system' ? (window.matchMedia?.(DARK_QUERY).matches ? 'dark' : 'light') : mode
}

/** The chosen mode, and the scheme it resolves to now. */
export function useThemeMode(): { mode: ThemeMode; scheme: 'light' | 'dark' } {
  const mode = useSyncExternalStore(subscribe, readThemeMode, () => 'system' as ThemeMode)
  const systemDark = useSyncExternalStore(subscribe, () => window.matchMedia?.(DARK_QUERY).matches ?? false, () => false)
  return { mode, scheme: mode === 'system' ? (systemDark ? 'dark' : 'light') : mode }
}
