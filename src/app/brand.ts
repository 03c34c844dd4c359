/**
 * Brand ramps: the console's green, and the ramp made around a server's theme colour. Plain colour arithmetic,
 * with no Fluent code, so the build reads the green too (scripts/vite-plugins.ts, lightThemeAtBuild).
 */
import type { BrandVariants } from '@fluentui/react-components'

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

/** WCAG 2 relative luminance of a `#rrggbb` colour. */
export function luminance(hex: string): number {
  const [r, g, b] = hexToRgb(hex).map((c) => {
    const v = c / 255
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
  }) as [number, number, number]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** WCAG 2 contrast ratio of two colours (1 … 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

function hexToRgb(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim())
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`)
  const n = parseInt(m[1]!, 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

function rgbToHsl([r, g, b]: [number, number, number]): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255]
  const max = Math.max(R, G, B)
  const min = Math.min(R, G, B)
  const l = (max + min) / 2
  if (max === min) return [0, 0, l]
  const d = max - min
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min)
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4
  return [h * 60, s, l]
}

function hslToHex(h: number, s: number, l: number): string {
  const k = (n: number) => (n + h / 30) % 12
  const a = s * Math.min(l, 1 - l)
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)))
  return '#' + [f(0), f(8), f(4)].map((x) => Math.round(Math.max(0, Math.min(1, x)) * 255).toString(16).padStart(2, '0')).join('')
}

/** Contrast that primary buttons (white text on stop 80) must reach: WCAG AA for normal text, with a margin. */
export const BUTTON_CONTRAST = 4.6
const WHITE = '#ffffff'

/**
 * A 16-stop brand ramp around a server theme colour (`INTERFACE.theme_info.colors['--color-primary']`), same hue
 * and saturation, lightness from near black (10) to near white (160). Stop 80 — primary buttons under white text —
 * is the colour itself when it already reaches AA with white, else the lightest darker shade that does.
 */
export function brandRampFrom(primary: string): BrandVariants {
  const [h, s, l] = rgbToHsl(hexToRgb(primary))
  let l80 = l
  if (contrast(hslToHex(h, s, l80), WHITE) < BUTTON_CONTRAST) {
    let lo = 0
    let hi = l
    for (let i = 0; i < 30; i++) {
      const mid = (lo + hi) / 2
      if (contrast(hslToHex(h, s, mid), WHITE) >= BUTTON_CONTRAST) lo = mid
      else hi = mid
    }
    l80 = lo
  }
  const darkest = Math.min(0.05, l80 / 2)
  const lightest = 0.96
  const stops = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160] as const
  const ramp = {} as Record<(typeof stops)[number], string>
  stops.forEach((stop, i) => {
    const lightness = i <= 7 ? darkest + ((l80 - darkest) * i) / 7 : l80 + ((lightest - l80) * (i - 7)) / 8
    ramp[stop] = i === 7 ? hslToHex(h, s, l80) : hslToHex(h, s, lightness)
  })
  return ramp as BrandVariants
}

/** The ramp for the public settings' theme colour, or the default green. */
export function brandFor(primary: string | undefined): BrandVariants {
  if (!primary) return BRAND_GREEN
  try {
    return brandRampFrom(primary)
  } catch {
    return BRAND_GREEN
  }
}
