/**
 * Build plugins of ours (vite.config.ts):
 * - `precompress`: writes `<file>.br` and `<file>.gz` next to every built text asset above 1 KB, once, at build
 *   time (brotli at its best quality, gzip level 9), for the server's content negotiation (`@fastify/static`'s
 *   `preCompressed`). A compressed copy that is not smaller is not written.
 * - `earlyStart`: builds `src/api/early.ts` as its own tiny entry and puts it into the console's HTML as the first
 *   (classic) `<script>` of <head>, so the start-up calls leave while the code still downloads (docs/architecture.md,
 *   "First visit"). External, not inline, so a strict script CSP (`script-src 'self'`) allows it. In the console's
 *   build it also writes the early table (src/router/earlyTable.ts, `__BASTION_EARLY__`) into that script and the
 *   chunk files it preloads into the tag's `data-assets`.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { CodeSplittingGroup } from 'rolldown'
import type { Plugin, ResolvedConfig } from 'vite'
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
export const firstScreenGroups: CodeSplittingGroup[] = [
  { name: 'app', priority: 2, tags: ['$initial'], test: (id) => !isEarlyModule(id) },
  // Every list page needs the list and table blocks (and the Fluent parts under them): one chunk, not fifteen.
  // Their dialogs (`*Dialog.tsx`) and parts loaded on use (`*.lazy.tsx`) stay out of it.
  { name: 'list', priority: 1, test: (id) => /[\\/]src[\\/]ui[\\/](list|table)[\\/]/.test(id) && !/(Dialog|\.lazy)\.tsx$/.test(id) },
]

/**
 * The login page is a second, separate build into the same `dist/` (`BASTION_BUILD=login`), run when the
 * console's build closes: in one build its modules would be split out of the console's `app` chunk again (one
 * rolldown graph decides chunks for both entries), and the first screen would be many files again.
 */
export function thenBuildLogin(configFile: string): Plugin {
  return {
    name: 'bastion:then-build-login',
    apply: (_config, env) => env.command === 'build' && !env.isPreview && process.env.BASTION_BUILD !== 'login',
    async closeBundle() {
      const { build } = await import('vite')
      process.env.BASTION_BUILD = 'login'
      try {
        await build({ configFile, logLevel: 'warn' })
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

export function earlyStart(): Plugin {
  let config: ResolvedConfig
  let refId = ''
  let pageModules: Record<string, string> = {}
  return {
    name: 'bastion:early-start',
    async config(_user, env) {
      // The console's build only (not the login page's, not the dev server, not tests): the table, as a constant.
      if (env.command !== 'build' || process.env.BASTION_BUILD === 'login') return
      const source = await loadEarlySource(process.cwd())
      pageModules = source.pageModules
      return { define: { __BASTION_EARLY__: JSON.stringify(source.table) } }
    },
    configResolved(c) {
      config = c
    },
    buildStart() {
      if (config.command === 'build' && process.env.BASTION_BUILD !== 'login') refId = this.emitFile({ type: 'chunk', id: join(config.root, EARLY_ENTRY), name: 'early', preserveSignature: 'allow-extension' })
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.filename.endsWith('index.html')) return html
        const build = config.command === 'build' && ctx.bundle
        const src = build
          ? `${config.base}${Object.values(ctx.bundle!).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(EARLY_ENTRY))?.fileName ?? ''}`
          : `${config.base}${EARLY_ENTRY}`
        void refId
        // A classic script first in <head>: it runs as soon as it arrives, before the browser is busy compiling the
        // console's code (an async module waited for that). Its chunk has no imports (EARLY_MODULES stay out of every
        // group), so the ES output is a plain script.
        const attrs: Record<string, string> = { src }
        if (build) attrs['data-assets'] = JSON.stringify(packAssets(earlyAssets(ctx.bundle as never, config.base, pageModules)))
        // The dev server serves the source, whose imports (earlyPlan.ts) only a module script may have.
        else attrs.type = 'module'
        return [{ tag: 'script', attrs, injectTo: 'head-prepend' }]
      },
    },
  }
}
