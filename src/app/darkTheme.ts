import { createDarkTheme, type BrandVariants, type Theme } from '@fluentui/react-components'
import { BRAND_GREEN, contrast } from './brand.ts'

/** The dark theme (loaded on demand: theme.ts, loadDarkTheme). */
export function darkTheme(brand: BrandVariants = BRAND_GREEN): Theme {
  const theme = createDarkTheme(brand)
  // Brand text on dark surfaces reads better one or two stops lighter (as Fluent's theme designer does); for
  // a dark server colour, go lighter still until it reaches AA on the dark surface.
  const surface = theme.colorNeutralBackground1
  const stops = [110, 120, 130, 140, 150, 160] as const
  const at = Math.max(0, stops.findIndex((stop) => contrast(brand[stop], surface) >= 4.5))
  const fg1 = brand[stops[at]!]
  const fg2 = brand[stops[Math.min(at + 1, stops.length - 1)]!]
  return { ...theme, colorBrandForeground1: fg1, colorBrandForeground2: fg2, colorBrandForegroundLink: fg2, colorBrandForegroundLinkHover: fg1 }
}
