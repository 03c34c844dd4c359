import { createLightTheme, type BrandVariants, type Theme } from '@fluentui/react-theme'
import { describe, expect, it } from 'vitest'
import { BRAND_GREEN } from '../src/app/brand.ts'
import { lightThemeParts, viewDeclarationGroup, xtermGroup } from './vite-plugins.ts'

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

describe("a view folder's declarations in one chunk", () => {
  const V = '/repo/src/views/console/users'
  // importer → imported (static), and the modules imported dynamically (the manifest's page loaders)
  const graph: Record<string, string[]> = {
    '/repo/src/main.tsx': ['/repo/src/views/manifest.ts'],
    '/repo/src/views/manifest.ts': [],
    [`${V}/UserListPage.tsx`]: [`${V}/resource.ts`, `${V}/userCommands.tsx`, '/repo/src/ui/list/ListTable.tsx'],
    [`${V}/userCommands.tsx`]: [`${V}/resource.ts`, '/repo/node_modules/icons/key-reset.js', '/repo/src/api/users.ts'],
    [`${V}/UserDetailPage.tsx`]: [`${V}/resource.ts`, '/repo/src/api/users.ts', '/repo/src/ui/list/ListTable.tsx'],
    [`${V}/resource.ts`]: [],
    '/repo/node_modules/icons/key-reset.js': ['/repo/node_modules/icons/base.js'],
    '/repo/node_modules/icons/base.js': [],
    '/repo/src/api/users.ts': [],
    '/repo/src/ui/list/ListTable.tsx': [],
  }
  const dynamic = new Set([`${V}/UserListPage.tsx`, `${V}/UserDetailPage.tsx`])
  const ctx = {
    getModuleInfo: (id: string) => ({
      id,
      isEntry: id === '/repo/src/main.tsx',
      importers: Object.keys(graph).filter((from) => graph[from]!.includes(id)),
      dynamicImporters: dynamic.has(id) ? ['/repo/src/views/manifest.ts'] : [],
    }),
  } as unknown as Parameters<typeof viewDeclarationGroup>[1]

  it('groups the list page, resource and commands by view and folder', () => {
    for (const file of ['UserListPage.tsx', 'resource.ts', 'userCommands.tsx']) expect(viewDeclarationGroup(`${V}/${file}`, ctx)).toBe('console-users')
  })

  it('takes what only they import, directly or not, and leaves what other chunks import too', () => {
    expect(viewDeclarationGroup('/repo/node_modules/icons/key-reset.js', ctx)).toBe('console-users')
    expect(viewDeclarationGroup('/repo/node_modules/icons/base.js', ctx)).toBe('console-users')
    expect(viewDeclarationGroup('/repo/src/api/users.ts', ctx)).toBeNull() // the detail page imports it too
    expect(viewDeclarationGroup(`${V}/UserDetailPage.tsx`, ctx)).toBeNull()
    expect(viewDeclarationGroup('/repo/src/ui/list/ListTable.tsx', ctx)).toBeNull() // so does the detail page (its own chunk)
    expect(viewDeclarationGroup('/repo/src/views/manifest.ts', ctx)).toBeNull()
  })
})

describe("xterm's chunk", () => {
  const test = xtermGroup.test as (id: string) => boolean

  it('takes xterm, its fit add-on and the one module that imports them, and nothing else', () => {
    expect(test('/app/node_modules/@xterm/xterm/lib/xterm.mjs')).toBe(true)
    expect(test('/app/node_modules/@xterm/xterm/css/xterm.css')).toBe(true)
    expect(test('/app/node_modules/@xterm/addon-fit/lib/addon-fit.mjs')).toBe(true)
    expect(test('/app/src/ui/terminal/xterm.ts')).toBe(true)
    // what imports it (their own chunks), the server's headless screen, other packages
    expect(test('/app/src/ui/terminal/fitted.ts')).toBe(false)
    expect(test('/app/src/ui/terminal/LiveScreen.tsx')).toBe(false)
    expect(test('/app/node_modules/@xterm/headless/lib-headless/xterm-headless.mjs')).toBe(false)
    expect(test('/app/node_modules/asciinema-player/dist/index.js')).toBe(false)
  })
})
