/**
 * Griffel's CSS out of the JavaScript, at build time (docs/decisions/griffel-s-rules-extracted-at-build-time.md).
 *
 * Fluent UI v9 ships its styles pre-compiled: `__styles(classesBySlot, cssRules)` and
 * `__resetStyles(ltr, rtl, cssRules)` calls whose CSS is literal text. At run time each of them inserts its rules
 * into `<style>` elements the first time a component renders — thousands of `insertRule` calls on a first visit,
 * during React's commit. This plugin takes those rules out of the modules while building, rewrites the calls to
 * Griffel's own extraction forms (`__css(classesBySlot)`, `__resetCSS(ltr, rtl)`: the same class names, no
 * insertion), and writes every rule once into one stylesheet that the HTML links: the browser parses it natively,
 * in parallel with the code.
 *
 * One stylesheet for the whole build, not one per chunk: Griffel orders its rules by bucket (reset, default, link,
 * visited, focus-within, focus, focus-visible, hover, active, at-rules, keyframes, media…), then by condition and
 * priority; split files arriving in another order would let a later chunk's default rule beat an earlier one's
 * hover. The order of sheets here is Griffel's own (getStyleSheetForBucket); within a sheet a rule comes where it
 * is first met, the entry's modules first.
 *
 * The console's own `makeStyles(styles)` calls are compiled here too, by Griffel's own compiler
 * (`resolveStyleRulesForSlots`, the function the run time calls: the same class names), when their styles can be
 * evaluated at build time: literals, Fluent's `tokens`, `typographyStyles` and `shorthands`, and the module's own
 * constants made of those. A call that names anything else stays as it was and is compiled at run time, inserting
 * after this stylesheet (Griffel's `<style>` elements follow a page's links); the build says how many.
 */
import MagicString from 'magic-string'
import { parseAst, type Plugin } from 'vite'

/** Griffel's bucket order (@griffel/core getStyleSheetForBucket.js, `styleBucketOrdering`). */
export const BUCKET_ORDER = ['r', 'd', 'l', 'v', 'w', 'f', 'i', 'h', 'a', 's', 'k', 't', 'm', 'c', 'x'] as const

export interface RuleMeta {
  /** media query ('m' bucket) */
  m?: string
  /** container query ('x' bucket) */
  x?: string
  /** priority within the bucket (shorthands before longhands) */
  p?: number
}

/** One rule as Griffel's build output writes it: the CSS text, with the metadata of its sheet. */
export type BucketEntry = string | [string, RuleMeta]
export type CSSRulesByBucket = Record<string, BucketEntry[]>

interface Node {
  type: string
  start: number
  end: number
  [key: string]: unknown
}

const GRIFFEL_MODULES = new Set(['@griffel/react', '@griffel/core'])
/** Where the console imports `makeStyles` and the style values from. */
const STYLE_MODULES = new Set(['@fluentui/react-components', '@griffel/react', '@griffel/core', '@fluentui/react-theme'])
/** Imports a style may use at build time: plain data or pure functions of data. */
const STYLE_VALUES = new Set(['tokens', 'typographyStyles', 'shorthands'])

/** What evaluating and compiling a `makeStyles` argument at build time needs (Griffel's and Fluent's own). */
export interface StyleCompiler {
  values: Record<string, unknown>
  resolveStyleRulesForSlots(styles: Record<string, unknown>): [Record<string, unknown>, CSSRulesByBucket]
}

/** Loads the compiler from the installed packages (Node can import both). */
export async function loadStyleCompiler(): Promise<StyleCompiler> {
  const [theme, griffel] = await Promise.all([import('@fluentui/react-theme'), import('@griffel/core')])
  return {
    values: { tokens: theme.tokens, typographyStyles: theme.typographyStyles, shorthands: griffel.shorthands },
    resolveStyleRulesForSlots: (styles) => griffel.resolveStyleRulesForSlots(styles as never) as never,
  }
}
const EXTRACTED: Record<string, { to: string; rulesAt: number }> = {
  __styles: { to: '__css', rulesAt: 1 },
  __resetStyles: { to: '__resetCSS', rulesAt: 2 },
}

class NotLiteral extends Error {}

/** The value of a literal expression (objects, arrays, strings, numbers, negative numbers); throws otherwise. */
function literal(node: Node): unknown {
  switch (node.type) {
    case 'Literal':
      return node.value
    case 'TemplateLiteral': {
      if ((node.expressions as Node[]).length) throw new NotLiteral()
      return (node.quasis as { value: { cooked: string } }[])[0]!.value.cooked
    }
    case 'UnaryExpression':
      if (node.operator === '-' && (node.argument as Node).type === 'Literal') return -((node.argument as Node).value as number)
      throw new NotLiteral()
    case 'ArrayExpression':
      return (node.elements as (Node | null)[]).map((e) => {
        if (!e || e.type === 'SpreadElement') throw new NotLiteral()
        return literal(e)
      })
    case 'ObjectExpression': {
      const out: Record<string, unknown> = {}
      for (const p of node.properties as Node[]) {
        if (p.type !== 'Property' || p.computed || p.kind !== 'init') throw new NotLiteral()
        const key = p.key as Node
        const name = key.type === 'Identifier' ? (key.name as string) : key.type === 'Literal' ? String(key.value) : undefined
        if (name === undefined) throw new NotLiteral()
        out[name] = literal(p.value as Node)
      }
      return out
    }
    default:
      throw new NotLiteral()
  }
}

function* walk(node: unknown): Generator<Node> {
  if (!node || typeof node !== 'object') return
  if (Array.isArray(node)) {
    for (const n of node) yield* walk(n)
    return
  }
  const n = node as Node
  if (typeof n.type === 'string') yield n
  for (const key in n) {
    if (key === 'type' || key === 'start' || key === 'end') continue
    const v = n[key]
    if (v && typeof v === 'object') yield* walk(v)
  }
}

/** Identifiers an expression reads (not property names), and whether it holds functions or other scopes. */
function freeNames(expr: Node): Set<string> {
  const names = new Set<string>()
  const visit = (node: Node): void => {
    switch (node.type) {
      case 'Identifier':
        names.add(node.name as string)
        return
      case 'FunctionExpression':
      case 'ArrowFunctionExpression':
      case 'ClassExpression':
      case 'ThisExpression':
      case 'AwaitExpression':
      case 'YieldExpression':
      case 'AssignmentExpression':
      case 'UpdateExpression':
        throw new NotLiteral()
      case 'MemberExpression':
        visit(node.object as Node)
        if (node.computed) visit(node.property as Node)
        return
      case 'Property':
        if (node.computed) visit(node.key as Node)
        visit(node.value as Node)
        return
      default:
        for (const key in node) {
          if (key === 'type' || key === 'start' || key === 'end') continue
          const v = node[key]
          if (Array.isArray(v)) {
            for (const n of v) if (n && typeof n === 'object' && typeof (n as Node).type === 'string') visit(n as Node)
          } else if (v && typeof v === 'object' && typeof (v as Node).type === 'string') visit(v as Node)
        }
    }
  }
  visit(expr)
  return names
}

/**
 * Evaluates a style expression at build time, when it reads only the style values imported (tokens…) and the
 * module's constants made of those (evaluated the same way); throws NotLiteral otherwise.
 */
function evaluate(code: string, expr: Node, values: Map<string, unknown>, constants: Map<string, Node>, evaluating = new Set<Node>()): unknown {
  if (evaluating.has(expr)) throw new NotLiteral()
  evaluating.add(expr)
  const scope: Record<string, unknown> = {}
  for (const name of freeNames(expr)) {
    if (values.has(name)) scope[name] = values.get(name)
    else if (constants.has(name)) scope[name] = evaluate(code, constants.get(name)!, values, constants, evaluating)
    else if (name === 'undefined') continue
    else throw new NotLiteral()
  }
  evaluating.delete(expr)
  const names = Object.keys(scope)
  // build time, over the console's own source, with only the style values in scope
  return new Function(...names, `"use strict"; return (${code.slice(expr.start, expr.end)})`)(...names.map((n) => scope[n]))
}

export interface Extraction {
  code: string
  map: ReturnType<MagicString['generateMap']>
  rules: CSSRulesByBucket[]
  /** calls left to run time (rules not literal) */
  kept: number
}

/**
 * Takes the rules out of one module's `__styles` / `__resetStyles` calls; undefined when it has none. `parse` is
 * Vite's (an ESTree with offsets).
 */
export function extractModule(code: string, id: string, compiler?: StyleCompiler, parse: (code: string) => unknown = (c) => parseAst(c)): Extraction | undefined {
  const compiles = !!compiler && code.includes('makeStyles')
  if (!compiles && !code.includes('__styles') && !code.includes('__resetStyles')) return undefined
  const ast = parse(code) as { body: Node[] }
  // local name → [extraction form, module] for the calls imported from Griffel
  const locals = new Map<string, { to: string; rulesAt: number; from: string }>()
  // local name → the value a style may use (tokens…), and the module's top-level constants (their initialisers)
  const styleValues = new Map<string, unknown>()
  const constants = new Map<string, Node>()
  const makeStyles = new Set<string>()
  for (const node of ast.body) {
    if (node.type === 'VariableDeclaration' && node.kind === 'const') {
      for (const d of node.declarations as Node[]) if ((d.id as Node).type === 'Identifier' && d.init) constants.set((d.id as Node).name as string, d.init as Node)
    }
    if (node.type !== 'ImportDeclaration') continue
    const from = (node.source as Node).value as string
    for (const s of node.specifiers as Node[]) {
      const imported = s.type === 'ImportSpecifier' ? ((s.imported as Node).name ?? (s.imported as Node).value) as string : undefined
      if (!imported) continue
      const local = (s.local as Node).name as string
      const form = GRIFFEL_MODULES.has(from) ? EXTRACTED[imported] : undefined
      if (form) locals.set(local, { ...form, from })
      if (compiles && STYLE_MODULES.has(from)) {
        if (imported === 'makeStyles') makeStyles.add(local)
        if (STYLE_VALUES.has(imported)) styleValues.set(local, compiler!.values[imported])
      }
    }
  }
  if (!locals.size && !makeStyles.size) return undefined
  const s = new MagicString(code)
  const rules: CSSRulesByBucket[] = []
  const needed = new Map<string, Set<string>>()
  let kept = 0
  for (const node of walk(ast)) {
    if (node.type !== 'CallExpression') continue
    const callee = node.callee as Node
    if (callee.type === 'Identifier' && makeStyles.has(callee.name as string)) {
      const args = node.arguments as Node[]
      let styles: unknown
      try {
        if (args.length !== 1) throw new NotLiteral()
        styles = evaluate(code, args[0]!, styleValues, constants)
      } catch (e) {
        if (!(e instanceof NotLiteral)) throw new Error(`${id}: makeStyles at ${node.start} could not be compiled: ${(e as Error).message}`, { cause: e })
        kept++
        continue
      }
      const [classes, cssRules] = compiler!.resolveStyleRulesForSlots(styles as Record<string, unknown>)
      rules.push(cssRules)
      s.overwrite(node.start, node.end, `__bastion__css(${JSON.stringify(classes)})`)
      if (!needed.has('@griffel/react')) needed.set('@griffel/react', new Set())
      needed.get('@griffel/react')!.add('__css as __bastion__css')
      continue
    }
    const form = callee.type === 'Identifier' ? locals.get(callee.name as string) : undefined
    if (!form) continue
    const args = node.arguments as Node[]
    if (args.length !== form.rulesAt + 1) {
      kept++
      continue
    }
    let value: unknown
    try {
      value = literal(args[form.rulesAt]!)
    } catch (e) {
      if (!(e instanceof NotLiteral)) throw e
      kept++
      continue
    }
    rules.push(Array.isArray(value) ? { r: value as BucketEntry[] } : (value as CSSRulesByBucket))
    const local = `__bastion${form.to}`
    s.overwrite(callee.start, callee.end, local)
    s.remove(args[form.rulesAt - 1]!.end, args[form.rulesAt]!.end)
    if (!needed.has(form.from)) needed.set(form.from, new Set())
    needed.get(form.from)!.add(`${form.to} as ${local}`)
  }
  if (!rules.length) return undefined
  for (const [from, names] of needed) s.prepend(`import { ${[...names].join(', ')} } from ${JSON.stringify(from)};\n`)
  return { code: s.toString(), map: s.generateMap({ source: id, hires: 'boundary' }), rules, kept }
}

/** Where a module may import Fluent's `tokens` from (the console, and Fluent's own packages). */
const TOKEN_MODULES = new Set(['@fluentui/react-components', '@fluentui/react-theme', '@fluentui/tokens'])

/**
 * Fluent's `tokens` read at run time (`tokens.colorNeutralBackground2` in a component, an inline style, a
 * template) become the literal each stands for (`"var(--colorNeutralBackground2)"`): with no reader left, the
 * 30 KB object of every token leaves the first chunk. A module that uses the name any other way (passes the object
 * on, reads `tokens[key]`, declares its own `tokens`) is left as it is, and keeps the object in the build.
 * Undefined when there is nothing to replace.
 */
export function inlineTokens(code: string, id: string, values: Record<string, unknown>, parse: (code: string) => unknown = (c) => parseAst(c)): { code: string; map: ReturnType<MagicString['generateMap']>; replaced: number } | undefined {
  if (!code.includes('tokens')) return undefined
  const ast = parse(code) as { body: Node[] }
  const locals = new Set<string>()
  const specifiers: Node[] = []
  for (const node of ast.body) {
    if (node.type !== 'ImportDeclaration' || !TOKEN_MODULES.has((node.source as Node).value as string)) continue
    for (const s of node.specifiers as Node[]) {
      if (s.type !== 'ImportSpecifier') continue
      const imported = ((s.imported as Node).name ?? (s.imported as Node).value) as string
      if (imported !== 'tokens') continue
      locals.add((s.local as Node).name as string)
      specifiers.push(s)
    }
  }
  if (!locals.size) return undefined
  const reads: Array<{ node: Node; value: string }> = []
  let other = false
  // Every occurrence of the local name: a read of a known token, the import itself, or a name that is not a
  // reference (a property's key, a member after a dot). Anything else leaves the module alone.
  const visit = (node: unknown, parent: Node | undefined, key: string): void => {
    if (other || !node || typeof node !== 'object') return
    if (Array.isArray(node)) {
      for (const n of node) visit(n, parent, key)
      return
    }
    const n = node as Node
    if (typeof n.type !== 'string') return
    if (n.type === 'MemberExpression' && !n.computed && (n.object as Node).type === 'Identifier' && locals.has((n.object as Node).name as string)) {
      const name = (n.property as Node).name as string
      if (typeof values[name] === 'string') {
        reads.push({ node: n, value: values[name] as string })
        return
      }
      other = true
      return
    }
    if (n.type === 'Identifier' && locals.has(n.name as string)) {
      const notReference =
        (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) ||
        ((parent?.type === 'Property' || parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') && key === 'key' && !parent.computed && !parent.shorthand) ||
        (parent?.type === 'ImportSpecifier' && specifiers.includes(parent))
      if (!notReference) other = true
      return
    }
    for (const [k, v] of Object.entries(n)) if (k !== 'type' && v && typeof v === 'object') visit(v, n, k)
  }
  visit(ast.body, undefined, 'body')
  if (other || !reads.length) return undefined
  const s = new MagicString(code)
  for (const { node, value } of reads) s.overwrite(node.start, node.end, JSON.stringify(value))
  return { code: s.toString(), map: s.generateMap({ source: id, hires: 'boundary' }), replaced: reads.length }
}

/** A JavaScript or TypeScript module of the build (not a stylesheet, an asset or a virtual query). */
const isScriptModule = (id: string) => /\.[cm]?[jt]sx?$/.test(id.split('?')[0]!)

const normalize = (entry: BucketEntry): [string, RuleMeta] => (Array.isArray(entry) ? entry : [entry, {}])

/**
 * The stylesheet of rules gathered in order: Griffel's sheets in Griffel's order (bucket; then a media or container
 * bucket's condition, compared as Griffel's default renderer compares them; then priority), each rule once.
 */
export function stylesheet(gathered: CSSRulesByBucket[]): string {
  const sheets = new Map<string, { bucket: number; condition: string; priority: number; rules: string[] }>()
  const seen = new Set<string>()
  for (const rules of gathered) {
    for (const bucket of Object.keys(rules)) {
      const order = (BUCKET_ORDER as readonly string[]).indexOf(bucket)
      if (order < 0) throw new Error(`unknown Griffel bucket "${bucket}"`)
      for (const entry of rules[bucket]!) {
        const [css, meta] = normalize(entry)
        if (seen.has(css)) continue
        seen.add(css)
        const condition = bucket === 'm' ? (meta.m ?? '') : bucket === 'x' ? (meta.x ?? '') : ''
        const priority = meta.p ?? 0
        const key = `${bucket}\u0000${condition}\u0000${priority}`
        let sheet = sheets.get(key)
        if (!sheet) sheets.set(key, (sheet = { bucket: order, condition, priority, rules: [] }))
        sheet.rules.push(css)
      }
    }
  }
  const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  return [...sheets.values()]
    .sort((a, b) => a.bucket - b.bucket || compare(a.condition, b.condition) || a.priority - b.priority)
    .map((sheet) => sheet.rules.join(''))
    .join('\n')
}

/**
 * The build plugin: extracts while transforming, writes `assets/styles-<hash>.css` with the rules of the modules
 * that made it into the bundle (after the CSS the entry imports itself), and links it from each HTML page of the
 * build, before its scripts.
 */
export function griffelExtract(): Plugin {
  const byModule = new Map<string, CSSRulesByBucket[]>()
  let kept = 0
  let base = '/'
  let compiler: StyleCompiler | undefined
  return {
    name: 'bastion:griffel-extract',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base
    },
    async buildStart() {
      compiler = await loadStyleCompiler()
    },
    transform(code, id) {
      if (!isScriptModule(id)) return undefined
      // The console's own modules have their makeStyles compiled; the packages' are compiled already.
      const out = extractModule(code, id, /node_modules/.test(id) ? undefined : compiler)
      if (!out) return undefined
      byModule.set(id, out.rules)
      kept += out.kept
      return { code: out.code, map: out.map }
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
      // The entry's modules first, then the other chunks by name: a stable order, so a stable file and hash.
      chunks.sort((a, b) => Number(b.isEntry) - Number(a.isEntry) || (a.fileName < b.fileName ? -1 : 1))
      const gathered: CSSRulesByBucket[] = []
      for (const chunk of chunks) for (const id of chunk.moduleIds) gathered.push(...(byModule.get(id) ?? []))
      if (!gathered.length) return
      // CSS the entry imports itself (the build-time light theme, src/main.tsx) opens the same file: one stylesheet,
      // one request for the first screen. First, as in the dev server, where imported CSS precedes Griffel's rules.
      const entryCss = chunks.filter((c) => c.isEntry).flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])])
      const opening = entryCss.map((fileName) => {
        const asset = bundle[fileName]
        delete bundle[fileName]
        // Vite's preload lists (written after this hook) name a chunk's CSS and its imports' CSS: a folded file
        // left there would be asked for on a lazy import, answered 404, and fail that import once.
        for (const chunk of chunks) chunk.viteMetadata?.importedCss.delete(fileName)
        return asset?.type === 'asset' ? String(asset.source) : ''
      })
      const ref = this.emitFile({ type: 'asset', name: 'styles.css', source: opening.join('') + stylesheet(gathered) })
      const href = `${base}${this.getFileName(ref)}`
      const folded = entryCss.map((fileName) => `${base}${fileName}`)
      for (const file of Object.values(bundle)) {
        if (file.type !== 'asset' || !file.fileName.endsWith('.html')) continue
        const html = String(file.source).replace(/\s*<link\b[^>]*>/g, (tag) => (folded.some((at) => tag.includes(`href="${at}"`)) ? '' : tag))
        const link = `<link rel="stylesheet" href="${href}">`
        // Before the first module script (after the early script, which must start first), or at the end of <head>.
        const at = html.search(/<script type="module"/)
        file.source = at >= 0 ? `${html.slice(0, at)}${link}\n    ${html.slice(at)}` : html.replace('</head>', `  ${link}\n  </head>`)
      }
      if (kept) this.warn(`${kept} Griffel calls left to run time (styles not evaluable at build time)`)
    },
  }
}

/**
 * The build plugin of `inlineTokens`, after `griffelExtract` (whose build-time styles read the same values): every
 * module of the build, the console's and Fluent's.
 */
export function inlineTokensPlugin(): Plugin {
  let values: Record<string, unknown> = {}
  return {
    name: 'bastion:inline-tokens',
    apply: 'build',
    enforce: 'post',
    async buildStart() {
      values = (await import('@fluentui/react-theme')).tokens as unknown as Record<string, unknown>
    },
    transform(code, id) {
      if (!isScriptModule(id)) return undefined
      const out = inlineTokens(code, id, values)
      if (!out) return undefined
      return { code: out.code, map: out.map }
    },
  }
}
