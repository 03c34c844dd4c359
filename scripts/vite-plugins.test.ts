import { createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-theme'
import { describe, expect, it } from 'vitest'
import { BRAND_GREEN } from '../src/app/brand.ts'
import { lightThemeParts } from './vite-plugins.ts'

describe('the light theme at build time', () => {
  it("writes Fluent's light theme on :root and finds the tokens made from brand stops", () => {
    const { css, brandStops } = lightThemeParts(createLightTheme, BRAND_GREEN)
    expect(css).toMatch(/^:root\{--borderRadiusNone:0;/)
    expect(css).toContain(`--colorBrandBackground:${BRAND_GREEN[80]};`)
    expect(brandStops).toMatchObject({ colorBrandBackground: 80, colorBrandForegroundLink: 70, colorBrandStroke2: 140 })
    expect(brandStops).not.toHaveProperty('colorNeutralBackground1')
  })

  it('stops the build when a token mixes a brand stop into another value', () => {
    const mixing = (brand: BrandVariants) => ({ ...createLightTheme(brand), shadow2Brand: `0 0 2px ${brand[80]}` }) as Theme
    expect(() => lightThemeParts(mixing, BRAND_GREEN)).toThrow(/shadow2Brand is made from a brand stop/)
  })
})
