/**
 * Build plugins of ours (vite.config.ts):
 * - `precompress`: writes `<file>.br` and `<file>.gz` next to every built text asset above 1 KB, once, at build
 *   time (brotli at its best quality, gzip level 9), for the server's content negotiation (`@fastify/static`'s
 *   `preCompressed`). A compressed copy that is not smaller is not written.
 * - `earlyStart`: builds `src/api/early.ts` as its own tiny entry and puts it into the console's HTML as the first
 *   (classic) `<script>` of <head>, so the start-up calls leave while the code still downloads (docs/architecture.md,
 *   "First visit"). External, not inline, so a strict script CSP (`script-src 'self'`) allows it.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { CodeSplittingGroup } from 'rolldown'
import type { Plugin, ResolvedConfig } from 'vite'

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

/**
 * The console's first screen in few chunks: every module `index.html` imports statically goes into `app`, the
 * list and table blocks every list page uses into `list`; pages keep their own small chunks and import what they
 * share from those two. The early module stays apart.
 */
export const firstScreenGroups: CodeSplittingGroup[] = [
  { name: 'app', priority: 2, tags: ['$initial'], test: (id) => !id.endsWith(EARLY_ENTRY) },
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

export function earlyStart(): Plugin {
  let config: ResolvedConfig
  let refId = ''
  return {
    name: 'bastion:early-start',
    configResolved(c) {
      config = c
    },
    buildStart() {
      if (config.command === 'build') refId = this.emitFile({ type: 'chunk', id: join(config.root, EARLY_ENTRY), name: 'early', preserveSignature: 'allow-extension' })
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.filename.endsWith('index.html')) return html
        const src = config.command === 'build' && ctx.bundle
          ? `${config.base}${Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith(EARLY_ENTRY))?.fileName ?? ''}`
          : `${config.base}${EARLY_ENTRY}`
        void refId
        // A classic script first in <head>: it runs as soon as it arrives, before the browser is busy compiling the
        // console's code (an async module waited for that). It has no imports, so the ES output is a plain script.
        return [{ tag: 'script', attrs: { src }, injectTo: 'head-prepend' }]
      },
    },
  }
}
