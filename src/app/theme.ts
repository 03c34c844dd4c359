import type { BrandVariants, Theme } from '@fluentui/react-components'
import { brandStops } from 'virtual:bastion/light-brand'
import { BRAND_GREEN } from './brand.ts'

export type ThemeMode = 'light' | 'dark' | 'system'

/** Nothing to write: the stylesheet already holds the light theme in the green. */
const STYLESHEET_LIGHT: Partial<Theme> = {}

/**
 * The light theme, as far as FluentProvider must write it. Fluent's whole light theme in the green is in the
 * stylesheet, as variables of `:root` that portals inherit too (main.tsx imports it; the build makes it with
 * Fluent's own createLightTheme: lightThemeAtBuild in scripts/vite-plugins.ts), so the first screen carries no
 * theme code and the provider writes no variables. A server colour changes only the tokens made from brand stops:
 * the build's table says which stop each takes, and the provider writes just those.
 */
export function lightTheme(brand: BrandVariants = BRAND_GREEN): Partial<Theme> {
  if (brand === BRAND_GREEN) return STYLESHEET_LIGHT
  return Object.fromEntries(Object.entries(brandStops).map(([token, stop]) => [token, brand[stop]]))
}

/**
 * The theme of a scheme. The dark theme's code (Fluent's dark palette and aliases) is not in the first screen's
 * chunk: `dark` is darkTheme.ts once loaded (loadDarkTheme); until then the light theme stands in. The dark theme
 * is whole: the provider writes all of it over the stylesheet's light variables.
 */
export function themeFor(mode: 'light' | 'dark', brand: BrandVariants = BRAND_GREEN, dark?: (brand: BrandVariants) => Theme): Partial<Theme> {
  return mode === 'dark' && dark ? dark(brand) : lightTheme(brand)
}

export type DarkTheme = (brand?: BrandVariants) => Theme
let darkModule: Promise<DarkTheme> | undefined
/** Loads the dark theme (once). */
export function loadDarkTheme(): Promise<DarkTheme> {
  darkModule ??= import('./darkTheme.ts').then((m) => m.darkTheme)
  return darkModule
}
