/** Light / dark / system theme choice, remembered in the browser (`themeMode`). */
import { useSyncExternalStore } from 'react'
import { mediaMatches, subscribeMedia } from './media.ts'
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

function subscribeMode(listener: () => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

const subscribeSystemDark = subscribeMedia(DARK_QUERY)
const systemDark = () => mediaMatches(DARK_QUERY)

/** The scheme the chosen mode resolves to now (outside React). */
export function currentScheme(): 'light' | 'dark' {
  const mode = readThemeMode()
  return mode === 'system' ? (systemDark() ? 'dark' : 'light') : mode
}

/** The chosen mode, and the scheme it resolves to now. */
export function useThemeMode(): { mode: ThemeMode; scheme: 'light' | 'dark' } {
  const mode = useSyncExternalStore(subscribeMode, readThemeMode, () => 'system' as ThemeMode)
  const dark = useSyncExternalStore(subscribeSystemDark, systemDark, () => false)
  return { mode, scheme: mode === 'system' ? (dark ? 'dark' : 'light') : mode }
}
