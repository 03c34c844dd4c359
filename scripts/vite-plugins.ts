/**
 * Build plugins of ours (vite.config.ts):
 * - `precompress`: writes `<file>.br` and `<file>.gz` next to every built text asset above 1 KB, once, at build
 *   time (brotli at its best quality, gzip level 9), for the server's content negotiation (server/http/assets.ts). A
 *   compressed copy that is not smaller is not written.
 * - `earlyStart`: builds `src/api/early.ts` as its own tiny entry and puts it into the console's HTML as the first
 *   (classic) `<script>` of <head>, so the start-up calls leave while the code still downloads (docs/architecture.md,
 *   "First visit"). In the build it is written into the page (inline: the server allows it by its SHA-256 in the
 *   page's CSP, server/http/assets.ts); in the dev server it is a module script of the source. In the console's
 *   build it also writes the early table (src/router/earlyTable.ts, `__BASTION_EARLY__`) into that script and the
 *   chunk files it preloads into the tag's `data-assets`.
 * - `lightThemeAtBuild`: Fluent's light theme in the console's green as variables of `:root`, a stylesheet made at
 *   build time (`virtual:bastion/light-theme.css`, imported by src/main.tsx), and the table of the tokens a server
 *   colour changes (`virtual:bastion/light-brand`, read by src/app/theme.ts), both from Fluent's own
 *   createLightTheme, so the first screen carries no theme code (docs/architecture.md, "First visit").
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { ChunkingContext, CodeSplittingGroup } from 'rolldown'
import type { Plugin, ResolvedConfig } from 'vite'
import type { BrandVariants, Theme } from '@fluentui/react-theme'
import { BRAND_GREEN } from '../src/app/brand.ts'
import type * as EarlyTableModule from '../src/router/earlyTable.ts'
import type * as PagesModule from '../src/router/pages.ts'

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|ico|woff)$/i
const MIN_BYTES = 1024

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) yield* files(path)
    else yield path
  }
}

/** Compresses one file's bytes both ways; returns the copies worth keeping. */
export function compressedCopies(bytes: Buffer): { br?: Buffer; gz?: Buffer } {
  const br = brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  })
  const gz = gzipSync(bytes, { level: 9 })
  return { br: br.length < bytes.length ? br : undefined, gz: gz.length < bytes.length ? gz : undefined }
}

export function precompress(): Plugin {
  let config: ResolvedConfig
  return {
    name: 'bastion:precompress',
    apply: 'build',
    configResolved(c) {
      config = c
    },
    closeBundle() {
      const outDir = resolve(config.root, config.build.outDir)
      if (!config.build.write || !existsSync(outDir)) return
      let count = 0
      for (const path of files(outDir)) {
        if (!COMPRESSIBLE.test(path)) continue
        if (existsSync(`${path}.br`) && statSync(`${path}.br`).mtimeMs >= statSync(path).mtimeMs) continue
        const bytes = readFileSync(path)
        if (bytes.length < MIN_BYTES) continue
        const { br, gz } = compressedCopies(bytes)
        if (br) writeFileSync(`${path}.br`, br)
        if (gz) writeFileSync(`${path}.gz`, gz)
        count++
      }
      config.logger.info(`precompressed ${count} files (.br, .gz)`)
    },
  }
}

const EARLY_ENTRY = 'src/api/early.ts'
/** The early script's modules: its own chunk, with no imports (a classic script). */
const EARLY_MODULES = [EARLY_ENTRY, 'src/api/earlyPlan.ts']
const isEarlyModule = (id: string) => EARLY_MODULES.some((m) => id.replace(/\\/g, '/').endsWith(m))

/**
 * The console's first screen in few chunks: every module `index.html` imports statically goes into `app`, the
 * list and table blocks every list page uses into `list`; pages keep their own small chunks and import what they
 * share from those two. The early module stays apart.
 */
const VIEW_DECLARATION = /[\\/]src[\\/]views[\\/](\w+)[\\/]([\w-]+)[\\/](?:\w*ListPage\.tsx|resource\.ts|\w*[cC]ommands\.tsx)$/

/**
 * The group of a view folder's declarations (`console-users` for src/views/console/users/{UserListPage.tsx, resource.ts,
 * userCommands.tsx}), and of every module that only they import, directly or not; null for anything else.
 */
export function viewDeclarationGroup(id: string, ctx: ChunkingContext): string | null {
  const memo = new Map<string, string | null>()
  const groupOf = (moduleId: string): string | null => {
    const known = memo.get(moduleId)
    if (known !== undefined) return known
    memo.set(moduleId, null) // an import cycle: not exclusive
    const declaration = VIEW_DECLARATION.exec(moduleId)
    let group = declaration ? `${declaration[1]}-${declaration[2]}` : null
    if (!group) {
      const info = ctx.getModuleInfo(moduleId)
      if (info && info.dynamicImporters.length === 0 && info.importers.length > 0 && !info.isEntry) {
        const owners = new Set(info.importers.map(groupOf))
        const [only] = owners
        group = owners.size === 1 && only ? only : null
      }
    }
    memo.set(moduleId, group)
    return group
  }
  return groupOf(id)
}

/**
 * xterm, its fit add-on and its stylesheet (src/ui/terminal/xterm.ts, the one module that imports them): one chunk,
 * `xterm`, in the console's build (lazy: the monitor, the job output) and in the web terminal's (its first load).
 * Its code imports nothing, so both builds write the same bytes under the same name: one file in `dist/`, and a
 * browser that has it from one page has it for the other (scripts/bundle-size.ts checks that they are one file).
 */
export const xtermGroup: CodeSplittingGroup = {
  name: 'xterm', priority: 3,
  test: (id) => /[\\/](node_modules[\\/]@xterm[\\/](xterm|addon-fit)[\\/]|src[\\/]ui[\\/]terminal[\\/]xterm\.ts$)/.test(id),
}

export const firstScreenGroups: CodeSplittingGroup[] = [
  xtermGroup,
  { name: 'app', priority: 2, tags: ['$initial'], test: (id) => !isEarlyModule(id) },
  // Every list page needs the list and table blocks (and the Fluent parts under them): one chunk, not fifteen.
  // Their dialogs (`*Dialog.tsx`) and parts loaded on use (`*.lazy.tsx`) stay out of it.
  { name: 'list', priority: 1, test: (id) => /[\\/]src[\\/]ui[\\/](list|table)[\\/]/.test(id) && !/(Dialog|\.lazy)\.tsx$/.test(id) },
  // The node tree beside the asset lists and My assets: our tree and Fluent's tree package, one chunk (they were two,
  // and the asset lists' first visit went past its file budget, scripts/bundle-size.ts).
  { name: 'tree', priority: 1, test: (id) => /[\\/](src[\\/]ui[\\/]tree[\\/]LazyTree\.tsx|node_modules[\\/]@fluentui[\\/]react-tree[\\/])/.test(id) },
  // Entering a secret or a confirmation: the confirm dialog's hook and the RSA encryption every secret form uses, one
  // chunk (lists with secret commands, forms, imports and the profile each need both, or neither).
  { name: 'secret-entry', priority: 1, test: (id) => /[\\/]src[\\/](api[\\/]crypto\.ts|ui[\\/]confirm[\\/]useUserConfirm\.tsx)$/.test(id) },
  // A view folder's list page, resource declaration and commands, with what only they import: one small chunk,
  // not three or four (what other chunks import too stays where rolldown puts it).
  { name: viewDeclarationGroup, debugName: 'view-declarations', priority: 0, includeDependenciesRecursively: false },
]

/**
 * The login page and the web terminal are separate builds into the same `dist/` (`BASTION_BUILD=login|luna`), run when the
 * console's build closes: in one build its modules would be split out of the console's `app` chunk again (one
 * rolldown graph decides chunks for both entries), and the first screen would be many files again.
 */
export function thenBuildLogin(configFile: string): Plugin {
  return {
    name: 'bastion:then-build-login',
    apply: (_config, env) => env.command === 'build' && !env.isPreview && !process.env.BASTION_BUILD,
    async closeBundle() {
      const { build } = await import('vite')
      try {
        // the login page, then the web terminal (luna.html): separate builds, so neither shares a chunk with the
        // console nor with the other
        for (const entry of ['login', 'luna']) {
          process.env.BASTION_BUILD = entry
          await build({ configFile, logLevel: 'warn' })
        }
      } finally {
        delete process.env.BASTION_BUILD
      }
    },
  }
}

/** What the build learns from the source for the early module: its table, and each list path's page module. */
interface EarlySource {
  table: unknown
  /** list path → the module its page loader imports (absolute path) */
  pageModules: Record<string, string>
}

const PAGE_IMPORT = '__bastionPageImport'

/**
 * The early module's table (src/router/earlyTable.ts): the route catalogue and the manifest are loaded in a
 * throw-away Vite server (with the Lingui macro their messages need) and asked for it, once per build. In that
 * server every relative `import()` of src/ becomes a call that only notes the module it names, so calling a
 * list route's page loader (src/router/pages.ts) tells which module its page is, without loading it.
 */
async function loadEarlySource(root: string): Promise<EarlySource> {
  const { createServer } = await import('vite')
  const { default: babel } = await import('@rolldown/plugin-babel')
  const noted: string[] = []
  const holder = globalThis as unknown as Record<string, unknown>
  holder[PAGE_IMPORT] = (id: string) => {
    noted.push(id)
    return new Promise(() => {})
  }
  const server = await createServer({
    configFile: false,
    root,
    logLevel: 'warn',
    appType: 'custom',
    plugins: [
      {
        name: 'bastion:note-page-imports',
        enforce: 'pre',
        transform(code, id) {
          if (!/[\\/]src[\\/].*\.tsx?$/.test(id)) return undefined
          return code.replace(/\bimport\((['"])(\.\.?\/[^'"]+)\1\)/g, (_m, _q, spec: string) => `globalThis.${PAGE_IMPORT}(${JSON.stringify(resolve(dirname(id), spec))})`)
        },
      },
      babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    ],
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  })
  try {
    const tables = (await server.ssrLoadModule('/src/router/earlyTable.ts')) as typeof EarlyTableModule
    const pages = (await server.ssrLoadModule('/src/router/pages.ts')) as typeof PagesModule
    const pageModules: Record<string, string> = {}
    for (const list of tables.earlyLists()) {
      noted.length = 0
      void pages.pageLoader(list.name)()
      if (noted[0]) pageModules[list.path] = noted[0]
    }
    return { table: tables.earlyTable(), pageModules }
  } finally {
    delete holder[PAGE_IMPORT]
    await server.close()
  }
}

type BundleChunk = { type: string; name?: string; fileName: string; facadeModuleId?: string | null; moduleIds?: string[]; imports?: string[]; isEntry?: boolean }

/**
 * Chunk files the early module preloads (the `data-assets` of its tag): the catalogues by locale, the list chunk,
 * and each list path's page chunk with the chunks it imports (the entry excepted: it is on its way already).
 */
export function earlyAssets(bundle: Record<string, BundleChunk>, base: string, pageModules: Record<string, string> = {}): { catalogues: Record<string, string>; list: string[]; pages: Record<string, string[]> } {
  const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
  const entries = new Set(chunks.filter((c) => c.isEntry).map((c) => c.fileName))
  const byFile = new Map(chunks.map((c) => [c.fileName, c]))
  const withImports = (start: string[]): string[] => {
    const out: string[] = []
    const queue = [...start]
    while (queue.length) {
      const file = queue.shift()!
      if (entries.has(file) || out.includes(`${base}${file}`)) continue
      out.push(`${base}${file}`)
      queue.push(...(byFile.get(file)?.imports ?? []))
    }
    return out
  }
  const catalogues: Record<string, string> = {}
  for (const c of chunks) {
    const locale = /[\\/]locales[\\/](\w+)\.ts$/.exec(c.facadeModuleId ?? '')?.[1]
    if (locale) catalogues[locale] = `${base}${c.fileName}`
  }
  const list = withImports(chunks.filter((c) => c.name === 'list').map((c) => c.fileName))
  const pages: Record<string, string[]> = {}
  for (const [path, id] of Object.entries(pageModules)) {
    const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds?.includes(id))
    if (chunk && !entries.has(chunk.fileName)) pages[path] = withImports([chunk.fileName])
  }
  return { catalogues, list, pages }
}

/** The tag's form of the assets: each file once in `files`, named elsewhere by its index (src/api/early.ts). */
export function packAssets(assets: ReturnType<typeof earlyAssets>) {
  const files: string[] = []
  const at = (file: string) => (files.includes(file) ? files.indexOf(file) : files.push(file) - 1)
  return {
    files,
    catalogues: Object.fromEntries(Object.entries(assets.catalogues).map(([k, f]) => [k, at(f)])),
    list: assets.list.map(at),
    pages: Object.fromEntries(Object.entries(assets.pages).map(([k, fs]) => [k, fs.map(at)])),
  }
}

/**
 * A script's text made safe inside `<script>…</script>`: `</script` (any case) and `<!--` cannot end or hide the
 * element early; both only occur in string literals of the minified code, where `<\/` means the same.
 */
export function inlineScript(code: string): string {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--').trimEnd()
}

export function earlyStart(): Plugin {
  let config: ResolvedConfig
  let pageModules: Record<string, string> = {}
  return {
    name: 'bastion:early-start',
    async config(_user, env) {
      // The console's build only (not the login page's, not the dev server, not tests): the table, as a constant.
      if (env.command !== 'build' || process.env.BASTION_BUILD) return
      const source = await loadEarlySource(process.cwd())
      pageModules = source.pageModules
      return { define: { __BASTION_EARLY__: JSON.stringify(source.table) } }
    },
    configResolved(c) {
      config = c
    },
    buildStart() {
      if (config.command === 'build' && !process.env.BASTION_BUILD) this.emitFile({ type: 'chunk', id: join(config.root, EARLY_ENTRY), name: 'early', preserveSignature: 'allow-extension' })
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.filename.endsWith('index.html')) return html
        const build = config.command === 'build' && ctx.bundle
        // A classic script first in <head>: it runs as the parser reaches it, before the browser is busy compiling
        // the console's code. Its chunk has no imports (EARLY_MODULES stay out of every group), so the ES output is a
        // plain script. In the build it is written into the page (one request less, and the start-up calls leave
        // before any file has arrived); the server allows it by its hash (server/http/assets.ts), not 'unsafe-inline'.
        if (!build) {
          // The dev server serves the source, whose imports (earlyPlan.ts) only a module script may have.
          return [{ tag: 'script', attrs: { type: 'module', src: `${config.base}${EARLY_ENTRY}` }, injectTo: 'head-prepend' }]
        }
        const bundle = ctx.bundle!
        const chunk = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(EARLY_ENTRY))
        if (!chunk || chunk.type !== 'chunk') throw new Error('early-start: the early chunk is missing from the bundle')
        delete bundle[chunk.fileName]
        const attrs: Record<string, string> = { 'data-assets': JSON.stringify(packAssets(earlyAssets(bundle as never, config.base, pageModules))) }
        return [{ tag: 'script', attrs, children: inlineScript(chunk.code), injectTo: 'head-prepend' }]
      },
    },
  }
}

const LIGHT_THEME_CSS = 'virtual:bastion/light-theme.css'
const LIGHT_BRAND = 'virtual:bastion/light-brand'
const BRAND_STOPS = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160] as const
const SENTINEL = 'bastion-brand-stop-'

/**
 * Fluent's light theme for a ramp as a stylesheet of `:root` variables, and which of its tokens are brand stops.
 * The table comes from making the theme once more with a ramp of sentinels: a token whose value is a sentinel
 * takes that stop. A token that only contains one (a stop mixed into a shadow, say) could not be rebuilt from the
 * table at run time, so the build stops rather than let a server colour drift from Fluent's theme.
 */
export function lightThemeParts(createLightTheme: (brand: BrandVariants) => Theme, brand: BrandVariants): { css: string; brandStops: Record<string, number> } {
  const probe = createLightTheme(Object.fromEntries(BRAND_STOPS.map((stop) => [stop, `${SENTINEL}${stop}`])) as unknown as BrandVariants)
  const brandStops: Record<string, number> = {}
  for (const [token, value] of Object.entries(probe)) {
    const stop = BRAND_STOPS.find((s) => value === `${SENTINEL}${s}`)
    if (stop) brandStops[token] = stop
    else if (String(value).includes(SENTINEL)) throw new Error(`light theme: Fluent's ${token} is made from a brand stop ("${value}"), not a stop itself`)
  }
  const variables = Object.entries(createLightTheme(brand)).map(([token, value]) => `--${token}:${value};`)
  return { css: `:root{${variables.join('')}}\n`, brandStops }
}

export function lightThemeAtBuild(): Plugin {
  let parts: Promise<ReturnType<typeof lightThemeParts>> | undefined
  // Fluent's theme code runs here, in Node, once per build (or dev server): never in the browser's first screen.
  const made = () => (parts ??= import('@fluentui/react-theme').then((m) => lightThemeParts(m.createLightTheme, BRAND_GREEN)))
  return {
    name: 'bastion:light-theme',
    resolveId(id) {
      const path = id.split('?')[0]
      return path === LIGHT_THEME_CSS || path === LIGHT_BRAND ? `\0${id}` : undefined
    },
    async load(id) {
      const path = id.startsWith('\0') ? id.slice(1).split('?')[0] : undefined
      if (path === LIGHT_THEME_CSS) return (await made()).css
      if (path === LIGHT_BRAND) return `export const brandStops = ${JSON.stringify((await made()).brandStops)}\n`
      return undefined
    },
  }
}
