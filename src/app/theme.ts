import { createDarkTheme, createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-components'

/**
 * The console's green brand ramp (10 darkest … 160 lightest). Fluent's light theme puts primary buttons on
 * stop 80, so stop 80 is a green that carries white text at WCAG AA (#127d67: 5.05:1); the reference console's
 * #1ab394 (2.65:1 with white) sits at stop 110, where it is a legible foreground on dark surfaces.
 */
export const BRAND_GREEN: BrandVariants = {
  10: '#020f0c',
  20: '#06201a',
  30: '#0a3127',
  40: '#0d4234',
  50: '#0f5442',
  60: '#10654f',
  70: '#11725a',
  80: '#127d67',
  90: '#168d74',
  100: '#1a9e82',
  110: '#1ab394',
  120: '#3dc2a5',
  130: '#66cfb7',
  140: '#8edcca',
  150: '#b6e9dc',
  160: '#def6ef',
}

export type ThemeMode = 'light' | 'dark' | 'system'

export function lightTheme(brand: BrandVariants = BRAND_GREEN): Theme {
  return createLightTheme(brand)
}

export function darkTheme(brand: BrandVariants = BRAND_GREEN): Theme {
  const theme = createDarkTheme(brand)
  // Brand text on dark surfaces reads better one or two stops lighter (as Fluent's theme designer does).
  return { ...theme, colorBrandForeground1: brand[110], colorBrandForeground2: brand[120], colorBrandForegroundLink: brand[120] }
}
