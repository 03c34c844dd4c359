/**
 * Conformance checks of resource declarations and of their OPTIONS answers. Each check is a function from a
 * declaration (or an OPTIONS answer) to a list of problems, so the suites can run them over every registered
 * resource and a test can show they catch a broken one. See docs/engine.md, "Adding a resource".
 */
import { allFields, labelOf, permOf } from '../engine/fields.ts'
import { columnOf, isRelation } from '../engine/kinds.ts'
import { allows } from '../engine/routes.ts'
import type { FieldDef, PermAction, ResourceDef, Verb } from '../engine/types.ts'
import { hasTranslation } from '../i18n.ts'
import { PERMISSION_BY_CODENAME } from '../rbac/catalog.ts'

export type Lookup = (name: string) => ResourceDef | undefined

const LANGS = ['zh', 'ja'] as const
const PERM_KINDS: PermAction[] = ['view', 'add', 'change', 'delete', 'import_add', 'import_change']
/** The verbs that check each permission kind: a kind no served verb checks needs no codename. */
const PERM_VERBS: Record<PermAction, Verb[]> = {
  view: ['list', 'retrieve', 'export'], add: ['create'], change: ['update', 'bulk_update'], delete: ['destroy', 'bulk_destroy'],
  import_add: ['import'], import_change: ['import'],
}

/** Every codename a requirement names (`a|b` alternatives, lists). */
export function codenamesOf(req: string | readonly string[] | null): string[] {
  if (req === null) return []
  return (typeof req === 'string' ? [req] : [...req]).flatMap((r) => r.split('|').map((s) => s.trim()))
}

/** Texts of a field that reach users: label, help text, choice and tree labels, children (recursively). */
function fieldTexts(f: FieldDef, isChild = false): string[] {
  const out: string[] = []
  if (!isChild || f.label) out.push(labelOf(f))
  if (f.help_text) out.push(f.help_text)
  for (const c of f.choices ?? []) out.push(c.label)
  const walk = (nodes: FieldDef['tree']) => { for (const n of nodes ?? []) { out.push(n.label); walk(n.children) } }
  walk(f.tree)
  for (const c of f.children ?? []) out.push(...fieldTexts(c))
  if (f.child) out.push(...fieldTexts(f.child, true))
  return out
}

/** Problems of one declaration, found without a server: translations, picker sources, permissions, names. */
export function declarationProblems(def: ResourceDef, lookup: Lookup): string[] {
  const problems: string[] = []
  const at = (what: string) => `${def.name}: ${what}`
  const fields = allFields(def)
  const names = new Set(fields.map((f) => f.name))

  // Every text shown to users has a zh and a ja entry (an entry may equal the English, e.g. "IP").
  const texts: Array<[string, string]> = [['verbose name', def.verboseName]]
  if (def.title) texts.push(['title', def.title])
  if (def.description) texts.push(['description', def.description])
  for (const f of fields) for (const t of fieldTexts(f)) texts.push([`field ${f.name}`, t])
  for (const [where, text] of texts) {
    for (const lang of LANGS) if (!hasTranslation(lang, text)) problems.push(at(`${where}: "${text}" has no ${lang} translation`))
  }

  // Related fields: a registered target with a list URL (the picker source) and the shown attributes.
  for (const f of fields) {
    if (!isRelation(f)) continue
    if (!f.relation) { problems.push(at(`field ${f.name}: ${f.type} without a relation`)); continue }
    const target = lookup(f.relation.resource)
    if (!target) { problems.push(at(`field ${f.name}: related resource ${f.relation.resource} is not registered (no picker source)`)); continue }
    const targetNames = new Set(allFields(target).map((x) => x.name))
    for (const a of f.relation.attrs ?? ['id', 'name']) {
      if (!targetNames.has(a)) problems.push(at(`field ${f.name}: ${target.name} has no attribute ${a}`))
    }
    if (f.type === 'm2m' && !f.relation.through && !f.load && !f.get) problems.push(at(`field ${f.name}: m2m without a link table`))
  }

  // Permissions: every codename the resource and its actions require is in the catalogue.
  for (const kind of PERM_KINDS) {
    if (!PERM_VERBS[kind].some((v) => allows(def, v))) continue
    for (const c of codenamesOf(permOf(def, kind))) if (!PERMISSION_BY_CODENAME.has(c)) problems.push(at(`permission ${kind}: ${c} is not in the catalogue`))
  }
  for (const a of def.actions ?? []) {
    for (const c of codenamesOf(a.perm)) if (!PERMISSION_BY_CODENAME.has(c)) problems.push(at(`action ${a.method} ${a.path}: ${c} is not in the catalogue`))
  }

  // Search, filters, ordering and sizes name real fields; search columns are stored (indexable) columns.
  for (const s of def.search ?? []) {
    const f = fields.find((x) => x.name === s)
    if (!f || !columnOf(f)) problems.push(at(`search field ${s} is not a column field`))
  }
  for (const flt of def.filters ?? []) if (typeof flt === 'string' && !names.has(flt)) problems.push(at(`filter ${flt} is not a field`))
  for (const o of [...(def.ordering?.fields ?? []), ...(def.ordering?.default ?? []).map((x) => x.replace(/^-/, ''))]) {
    if (!names.has(o)) problems.push(at(`ordering ${o} is not a field`))
  }
  for (const list of [def.sizes?.mini, def.sizes?.small]) for (const n of list ?? []) if (!names.has(n)) problems.push(at(`size field ${n} is not a field`))
  if (!def.path.startsWith('/api/v1/') || !def.path.endsWith('/')) problems.push(at(`path ${def.path} is not /api/v1/…/`))
  return problems
}

type Info = Record<string, any>
type Meta = { name?: unknown; description?: unknown; renders?: unknown; parses?: unknown; actions?: Record<string, Record<string, Info>> }

const INFO_KEYS = ['type', 'required', 'read_only', 'write_only']

/**
 * Problems of one OPTIONS answer in English, Chinese and Japanese: the shape of contract §2, every field's
 * picker source (`related`), and every label and help text translated — a translation equal to the English is
 * accepted only when the catalogue holds it (the same word in both languages).
 */
export function optionsProblems(where: string, en: Meta, byLang: Record<'zh' | 'ja', Meta>): string[] {
  const problems: string[] = []
  const at = (what: string) => `${where}: ${what}`
  if (typeof en.name !== 'string' || !en.name) problems.push(at('no name'))
  if (typeof en.description !== 'string') problems.push(at('no description'))
  if (!Array.isArray(en.renders) || !Array.isArray(en.parses)) problems.push(at('no renders/parses'))
  if (!en.actions || typeof en.actions !== 'object') return [...problems, at('no actions')]
  const checkInfo = (method: string, path: string, info: Info, isChild: boolean) => {
    for (const k of INFO_KEYS) if (!(k in info)) problems.push(at(`${method} ${path}: no ${k}`))
    if (!isChild && typeof info.label !== 'string') problems.push(at(`${method} ${path}: no label`))
    if ((info.type === 'object_related_field' || info.type === 'm2m_related_field') && !info.related) {
      problems.push(at(`${method} ${path}: related field without a picker source (related)`))
    }
    if (info.related && !(typeof info.related.url === 'string' && typeof info.related.model === 'string' && typeof info.related.label === 'string')) {
      problems.push(at(`${method} ${path}: malformed related hint`))
    }
    if ((info.type === 'choice' || info.type === 'labeled_choice' || info.type === 'multiple choice') && !Array.isArray(info.choices)) {
      problems.push(at(`${method} ${path}: choice field without choices`))
    }
  }
  const walk = (method: string, path: string, info: Info, other: Record<string, Info | undefined>, isChild = false) => {
    checkInfo(method, path, info, isChild)
    for (const key of ['label', 'help_text'] as const) {
      if (typeof info[key] !== 'string') continue
      for (const lang of LANGS) {
        const t = other[lang]?.[key]
        if (typeof t !== 'string') problems.push(at(`${method} ${path}: no ${key} in ${lang}`))
        else if (t === info[key] && !hasTranslation(lang, info[key])) problems.push(at(`${method} ${path}: ${key} "${info[key]}" is not translated to ${lang}`))
      }
    }
    ;(info.choices as Array<{ value: unknown; label: string }> | undefined)?.forEach((c, i) => {
      for (const lang of LANGS) {
        const t = other[lang]?.choices?.[i]?.label
        if (t === c.label && !hasTranslation(lang, c.label)) problems.push(at(`${method} ${path}: choice "${c.label}" is not translated to ${lang}`))
      }
    })
    for (const [name, child] of Object.entries((info.children ?? {}) as Record<string, Info>)) {
      walk(method, `${path}.${name}`, child, Object.fromEntries(LANGS.map((l) => [l, other[l]?.children?.[name]])))
    }
    if (info.child) walk(method, `${path}[]`, info.child, Object.fromEntries(LANGS.map((l) => [l, other[l]?.child])), true)
  }
  for (const [method, fields] of Object.entries(en.actions)) {
    for (const [name, info] of Object.entries(fields)) {
      walk(method, name, info, Object.fromEntries(LANGS.map((l) => [l, byLang[l].actions?.[method]?.[name]])))
    }
  }
  if (typeof en.name === 'string') {
    for (const lang of LANGS) if (byLang[lang].name === en.name && !hasTranslation(lang, en.name)) problems.push(at(`name "${en.name}" is not translated to ${lang}`))
  }
  return problems
}
