import { createDarkTheme, createLightTheme, type Theme } from '@fluentui/react-components'
import { describe, expect, it } from 'vitest'
import lightThemeCss from 'virtual:bastion/light-theme.css?inline'
import { BRAND_GREEN, brandFor, brandRampFrom, contrast } from './brand.ts'
import { darkTheme } from './darkTheme.ts'
import { lightTheme } from './theme.ts'

const STOPS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160] as const

describe('brand ramps and contrast', () => {
  it('computes WCAG contrast', () => {
    expect(contrast('#ffffff', '#000000')).toBeCloseTo(21, 5)
    expect(contrast('#1ab394', '#ffffff')).toBeCloseTo(2.65, 2)
  })

  it('gives primary buttons AA contrast in the default green', () => {
    expect(contrast(BRAND_GREEN[80], '#ffffff')).toBeGreaterThanOrEqual(4.5)
    const light = createLightTheme(BRAND_GREEN)
    expect(light.colorBrandBackground).toBe(BRAND_GREEN[80])
    expect(contrast(light.colorBrandBackground, light.colorNeutralForegroundOnBrand)).toBeGreaterThanOrEqual(4.5)
    expect(contrast(light.colorBrandBackgroundHover, light.colorNeutralForegroundOnBrand)).toBeGreaterThanOrEqual(4.5)
  })

  it.each(['#1ab394', '#ffff00', '#00ffff', '#ff7f50', '#2793d7', '#000080', '#777777', '#f8ac59'])(
    'maps server colour %s onto a ramp whose stop 80 passes AA with white',
    (colour) => {
      const ramp = brandRampFrom(colour)
      expect(contrast(ramp[80], '#ffffff')).toBeGreaterThanOrEqual(4.5)
      // Lightness falls from 160 to 10: each stop is at least as dark as the next.
      for (let i = 1; i < STOPS.length; i++) {
        expect(contrast(ramp[STOPS[i]!], '#000000')).toBeGreaterThanOrEqual(contrast(ramp[STOPS[i - 1]!], '#000000') - 1e-9)
      }
      const theme = createLightTheme(ramp)
      expect(contrast(theme.colorBrandBackground, '#ffffff')).toBeGreaterThanOrEqual(4.5)
    },
  )

  it('keeps a colour that already passes at stop 80', () => {
    expect(brandRampFrom('#000080')[80]).toBe('#000080')
  })

  it('falls back to the green for missing or malformed colours', () => {
    expect(brandFor(undefined)).toBe(BRAND_GREEN)
    expect(brandFor('green')).toBe(BRAND_GREEN)
  })

  it('keeps brand text legible on dark surfaces', () => {
    const dark = darkTheme()
    const surface = createDarkTheme(BRAND_GREEN).colorNeutralBackground1
    expect(contrast(dark.colorBrandForeground1, surface)).toBeGreaterThanOrEqual(4.5)
    expect(contrast(dark.colorBrandBackground, dark.colorNeutralForegroundOnBrand)).toBeGreaterThanOrEqual(4.5)
    const navy = darkTheme(brandRampFrom('#000080'))
    expect(contrast(navy.colorBrandForeground1, surface)).toBeGreaterThanOrEqual(4.5)
    expect(contrast(navy.colorBrandForegroundLink, surface)).toBeGreaterThanOrEqual(4.5)
  })
})

/** A theme's variables as CSS has them: every value a string. */
const asCss = (theme: Partial<Theme>) => Object.fromEntries(Object.entries(theme).map(([token, value]) => [token, String(value)]))

/** The build-time stylesheet's light theme read back (scripts/vite-plugins.ts, lightThemeAtBuild). */
const stylesheetTheme = () => Object.fromEntries([...lightThemeCss.matchAll(/--([\w-]+):([^;]*);/g)].map(([, token, value]) => [token!, value!]))

describe('the light theme made at build time', () => {
  it("holds Fluent's whole light theme in the green, so the provider writes nothing for it", () => {
    expect(stylesheetTheme()).toEqual(asCss(createLightTheme(BRAND_GREEN)))
    expect(lightTheme()).toEqual({})
    expect(lightTheme(BRAND_GREEN)).toEqual({})
  })

  it.each(['#2793d7', '#000080', '#f8ac59', '#1ab394'])('with the brand table over it, is createLightTheme of the ramp for %s', (colour) => {
    const ramp = brandRampFrom(colour)
    const written = lightTheme(ramp)
    expect({ ...stylesheetTheme(), ...asCss(written) }).toEqual(asCss(createLightTheme(ramp)))
    // Only the brand's tokens are written, not the whole theme again.
    expect(Object.keys(written).length).toBeLessThan(Object.keys(createLightTheme(ramp)).length / 4)
  })
})
