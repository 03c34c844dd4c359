/**
 * The form's state and behaviour, shared by the create/update page and the edit dialog: metadata from
 * `actions.POST` (create, clone) or `actions.PUT` (update), the object (update, clone), values, validation on
 * blur/change and before submit, payload with secrets encrypted, and server errors mapped onto fields.
 * Everything the user typed stays on a failed save.
 *
 * The form's life is the resourceForm machine (machines/form: loading → editing → validating → submitting →
 * saved | failed), an actor a route loader may have started (src/ui/form/formActor.ts); this hook renders its
 * snapshot and gives it what only the rendered form knows: the fields and their rules, the body, the save call.
 */
import { msg, t } from '@lingui/core/macro'
import Cookies from 'js-cookie'
import { useSelector } from '@xstate/react'
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { waitFor } from 'xstate'
import { formStatus } from '../../../machines/form/form.machine.ts'
import type { FormCheck, FormShape } from '../../../machines/form/form.types.ts'
import { ApiError } from '../../api/client.ts'
import { encryptSecret } from '../../api/crypto.ts'
import { formFields, type FieldMeta } from '../../api/metadata.ts'
import { createResource, patchResource, saveObject, updateResource, withQuery, type Row, type RowId } from '../../api/resources.ts'
import { useAccess } from '../common/access.tsx'
import { describeError } from '../common/errors.ts'
import { useUserConfirm } from '../confirm/useUserConfirm.tsx'
import type { ResourceDef } from '../common/resource.ts'
import { reportMissingSources, withRelatedSources } from './related.ts'
import { useCached } from '../common/useCached.ts'
import { useMetadata } from '../common/useMetadata.ts'
import { buildPayload, cloneValues, initialValues, layoutGroups, relatedLabels, resolveVariant, toFormValue, type FieldGroup } from './formModel.ts'
import { formMetaUrl, formMode, formObjectQuery, takeFormActor, type FormActorEntry, type FormTarget } from './formActor.ts'
import type { FieldLayout, FieldOverride, FieldOverrides, WidgetKind } from './types.ts'
import { runRules, type FormValues } from './validators.ts'
import { chooseWidget, rulesFor, validatesOnBlur } from './widgets.ts'

export const PUBLIC_KEY_COOKIE = 'jms_public_key'

export type FormMode = 'create' | 'update' | 'view'

export interface ResourceFormOptions {
  /** API list URL */
  url: string
  /** update (and view) of this object */
  id?: RowId
  /** `url` is one object without an id (a settings category): OPTIONS, GET and PUT/PATCH go to it */
  single?: boolean
  cloneFrom?: RowId
  view?: boolean
  layout?: FieldLayout
  overrides?: FieldOverrides
  /** starting values of a new object */
  initial?: FormValues
  /** picker sources of related fields the metadata does not describe (the resource's, from the manifest) */
  related?: ResourceDef['related']
  /** update verb (default PUT) */
  updateMethod?: 'PUT' | 'PATCH'
  /** last word on the body (e.g. values that depend on each other) */
  transform?: (payload: FormValues, values: FormValues) => FormValues
}

/** The server's answer to a write that needs a fresh confirmation of the user (server/auth/confirm.ts). */
function isConfirmAnswer(e: unknown): boolean {
  if (!(e instanceof ApiError) || e.status !== 400) return false
  const code = (e.data as { code?: unknown } | undefined)?.code
  return code === 'mfa' || code === 'password' || code === 'relogin'
}

export interface ResourceForm {
  /** the confirmation dialog a save may open (a resource whose writes need a fresh confirmation): render it */
  confirmDialog: ReactNode
  mode: FormMode
  /** the form machine's state (`editing`, `validating`, `submitting`, `saved`, `failed`, …): the form element shows it */
  state: string
  status: 'loading' | 'ready' | 'error'
  loadError: unknown
  fields: FieldMeta[]
  groups: FieldGroup[]
  values: FormValues
  errors: Record<string, string>
  topErrors: string[]
  labels: Record<string, Record<string, string>>
  saving: boolean
  /** bumps after a failed submit: the view focuses the first error */
  errorTick: number
  field: (name: string) => FieldMeta | undefined
  widgetOf: (field: FieldMeta) => WidgetKind
  visible: (name: string) => boolean
  setValue: (name: string, value: unknown) => void
  blur: (name: string) => void
  /** the saved object, or undefined when invalid or refused */
  submit: () => Promise<Row | undefined>
  reset: () => void
  /** rendered field names, in order */
  order: string[]
  /** the overrides in effect: the caller's plus every related field's picker source */
  overrides: FieldOverrides
  /** related fields without a picker source (reported on the console; a test failure in the manifest test) */
  missingSources: string[]
}

const scalarValue = (v: unknown): unknown => (v && typeof v === 'object' && !Array.isArray(v) ? ((v as Row).id ?? (v as Row).value) : v)

/** A nested value as an object: the form's sub-values, or JSON text (the field before its children were known). */
function objectValue(v: unknown): FormValues {
  if (typeof v === 'string') {
    try { v = JSON.parse(v) } catch { return {} }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as FormValues) : {}
}

function cloneMarker(): string {
  return t`Duplicate from `
}

export function encryptForServer(plain: string): string {
  return encryptSecret(plain, Cookies.get(PUBLIC_KEY_COOKIE))
}

const NO_OVERRIDES: FieldOverrides = {}

const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)

function secretsOf(object: unknown): Record<string, boolean> | undefined {
  const s = object && typeof object === 'object' ? (object as Row).SECRETS_SET : undefined
  return s && typeof s === 'object' && !Array.isArray(s) ? (s as Record<string, boolean>) : undefined
}

/** A secret field shows whether a value is stored; typing replaces it, leaving it empty keeps it. */
function withSecretPlaceholders(overrides: FieldOverrides, secrets: Record<string, boolean> | undefined): FieldOverrides {
  if (!secrets) return overrides
  const out: Record<string, FieldOverride> = { ...overrides }
  for (const [name, set] of Object.entries(secrets)) {
    out[name] = { placeholder: set ? msg`Set — leave empty to keep it` : msg`Not set`, ...overrides[name] }
  }
  return out
}

export function useResourceForm(opts: ResourceFormOptions): ResourceForm {
  const { url, id, cloneFrom, overrides: given = NO_OVERRIDES, layout, initial, transform, related, single = false } = opts
  const { orgId } = useAccess()
  const target: FormTarget = { url, id, cloneFrom, single, view: opts.view, orgId }
  const mode: FormMode = formMode(target)
  const metaUrl = formMetaUrl(target)
  const meta = useMetadata(metaUrl)
  const object = useCached(formObjectQuery(target))
  const entry = useFormActor(target)
  const { actor } = entry
  const { confirm: askConfirm, dialog: confirmDialog } = useUserConfirm()
  const snapshot = useSelector(actor, (s) => s)
  const { values, errors, topErrors, labels, errorTick } = snapshot.context

  const methods = useMemo(() => (id !== undefined || single ? ['PUT', 'PATCH'] as const : ['POST'] as const), [id, single])
  const baseFields = useMemo(() => formFields(meta.data, [...methods]), [meta.data, methods])
  // Fields whose sub-fields depend on other fields' values (`childrenFrom`): the metadata read again with those
  // values in the query gives their children; until a value is chosen (or when there are none) they are hidden.
  // Defaults that depend on another field's value (`defaultFrom`) are read the same way.
  const sources = useMemo(() => [...new Set(baseFields.flatMap((f) => [f.childrenFrom, f.defaultFrom].filter((x): x is string => !!x)))], [baseFields])
  const sourceValues = sources.map((name) => scalarValue(values[name]))
  const depUrl = sources.length && sourceValues.every((v) => v !== undefined && v !== null && v !== '')
    ? withQuery(metaUrl, Object.fromEntries(sources.map((name, i) => [name, String(sourceValues[i])]))) : undefined
  const depMeta = useMetadata(depUrl)
  const fields = useMemo(() => {
    if (!sources.length) return baseFields
    const resolved = depUrl && depMeta.status === 'ok' ? formFields(depMeta.data, [...methods]) : []
    return baseFields.map((f) => {
      if (!f.childrenFrom) return f
      const found = resolved.find((r) => r.name === f.name)
      return found?.type === 'nested object' && found.children?.length ? found : { ...f, children: [] }
    })
  }, [baseFields, sources, depUrl, depMeta.status, depMeta.data, methods])
  const unresolved = useMemo(() => new Set(fields.filter((f) => f.childrenFrom && !f.children?.length).map((f) => f.name)), [fields])
  // secrets of a single object (settings): the server says which are set (`SECRETS_SET`), never their values
  const [secretsSet, setSecretsSet] = useState<Record<string, boolean> | undefined>()
  useEffect(() => setSecretsSet(secretsOf(object.data)), [object.data])
  const { overrides, missing: missingSources } = useMemo(() => {
    const r = withRelatedSources(fields, given, related)
    return { ...r, overrides: withSecretPlaceholders(r.overrides, secretsSet) }
  }, [fields, given, related, secretsSet])
  useEffect(() => reportMissingSources(url, missingSources), [url, missingSources])
  const groups = useMemo(() => layoutGroups(fields, layout), [fields, layout])
  const order = useMemo(() => groups.flatMap((g) => g.names), [groups])
  const byName = useMemo(() => new Map(fields.map((f) => [f.name, f])), [fields])

  /** The starting values and labels of the object (a clone's marked as a copy), or of a new one. */
  const startingValues = () => {
    const raw = object.data && cloneFrom !== undefined && id === undefined ? cloneValues(object.data, cloneMarker()) : object.data
    return { values: initialValues(fields, overrides, raw, initial), labels: relatedLabels(object.data, overrides) }
  }
  const objectReady = (formObjectQuery(target) === undefined) || object.status === 'ok'
  const waiting = snapshot.matches({ loading: 'ready' })
  useEffect(() => {
    // the machine has the object and metadata; the form takes them once its own reads show them too
    if (waiting && meta.status === 'ok' && objectReady) actor.send({ type: 'START', ...startingValues() })
  })

  const status = formStatus(snapshot)
  // read during render: from the rendered values
  const visible = useCallback((name: string) => !unresolved.has(name) && !overrides[name]?.hidden?.(values), [overrides, values, unresolved])
  const widgetOf = useCallback((field: FieldMeta) => chooseWidget(field, overrides[field.name]), [overrides])

  const check = useCallback((name: string, all: FormValues): string | undefined => {
    const field = byName.get(name)
    if (!field || unresolved.has(name) || overrides[name]?.hidden?.(all)) return undefined
    const widget = chooseWidget(field, overrides[name])
    return runRules(rulesFor(field, widget, overrides[name]), all[name], all)
  }, [byName, overrides, unresolved])

  // a dependent field's children arrived or changed: its value follows (same-named sub-values are kept)
  const childrenKey = fields.filter((f) => f.childrenFrom).map((f) => `${f.name}:${(f.children ?? []).map((c) => `${c.name}/${c.type}`).join(',')}`).join(';')
  const started = status === 'ready'
  const followed = useRef('')
  useEffect(() => {
    if (!started || !childrenKey || followed.current === childrenKey) return
    followed.current = childrenKey
    const current = actor.getSnapshot().context.values
    const next: FormValues = {}
    for (const f of fields) {
      if (!f.childrenFrom || !f.children?.length) continue
      next[f.name] = toFormValue('nested', f, objectValue(current[f.name]), overrides[f.name]?.fields ?? {})
    }
    if (Object.keys(next).length) actor.send({ type: 'SET_VALUES', values: next })
  }, [actor, started, childrenKey, fields, overrides])

  // a default that depends on another field's value arrived (a host's protocols for its platform): a new object's
  // field shows it while the user has not changed it (still empty, or still the default shown before)
  const shownDefaults = useRef<Record<string, string>>({})
  useEffect(() => {
    if (!started || mode !== 'create' || !depUrl || depMeta.status !== 'ok') return
    const resolved = formFields(depMeta.data, [...methods])
    const current = actor.getSnapshot().context.values
    const next: FormValues = {}
    for (const f of baseFields) {
      if (!f.defaultFrom) continue
      const found = resolved.find((r) => r.name === f.name)
      if (!found?.hasDefault) continue
      const value = toFormValue(chooseWidget(f, overrides[f.name]), f, found.default, overrides[f.name]?.fields ?? {})
      const now = JSON.stringify(current[f.name] ?? null)
      const untouched = now === shownDefaults.current[f.name] || isEmptyValue(current[f.name])
      if (untouched && JSON.stringify(value) !== now) next[f.name] = value
      if (untouched) shownDefaults.current[f.name] = JSON.stringify(value)
    }
    if (Object.keys(next).length) actor.send({ type: 'SET_VALUES', values: next })
  }, [actor, started, mode, depUrl, depMeta.status, depMeta.data, methods, baseFields, overrides])

  const setValue = useCallback((name: string, value: unknown) => {
    const current = actor.getSnapshot().context
    const next = { ...current.values, [name]: value }
    const field = byName.get(name)
    // change-validated widgets check now; text inputs once they already show an error
    const now = field && (!validatesOnBlur(chooseWidget(field, overrides[name])) || current.errors[name])
    actor.send({ type: 'CHANGE', name, value, clearUnder: Boolean(field?.children?.length || field?.child?.children?.length), ...(now ? { error: check(name, next) ?? null } : {}) })
  }, [actor, byName, overrides, check])

  const blur = useCallback((name: string) => actor.send({ type: 'CHECKED', name, error: check(name, actor.getSnapshot().context.values) ?? null }), [actor, check])

  /** The machine's `validate`: every rendered field's rules (a nested object's sub-fields too), then the body. */
  const validate = (all: FormValues): FormCheck => {
    const shape: FormShape = {
      order,
      nested: Object.fromEntries(fields.filter((f) => order.includes(f.name) && chooseWidget(f, overrides[f.name]) === 'nested').map((f) => [f.name, (f.children ?? []).map((c) => c.name)])),
      labels: Object.fromEntries(fields.map((f) => [f.name, f.label])),
      lists: fields.filter((f) => order.includes(f.name) && chooseWidget(f, overrides[f.name]) === 'nestedList').map((f) => f.name),
    }
    const found: Record<string, string> = {}
    for (const name of order) {
      const message = check(name, all)
      if (message) found[name] = message
      // sub-fields of a nested object: their own rules, each message on its sub-field (`name.sub`)
      const field = byName.get(name)
      if (field && !message && !unresolved.has(name) && !overrides[name]?.hidden?.(all) && chooseWidget(field, overrides[name]) === 'nested') {
        const sub = objectValue(all[name])
        for (const child of field.children ?? []) {
          if (child.readOnly) continue
          const o = overrides[name]?.fields?.[child.name] ?? {}
          const m = runRules(rulesFor(child, chooseWidget(child, o), o), sub[child.name], sub)
          if (m) found[`${name}.${child.name}`] = m
        }
      }
      // rows of a list of nested objects: each shown sub-field's rules, the message on `name.<row>.<sub>`
      if (field && !message && !overrides[name]?.hidden?.(all) && chooseWidget(field, overrides[name]) === 'nestedList') {
        const rows = Array.isArray(all[name]) ? (all[name] as unknown[]) : []
        rows.forEach((item, i) => {
          const row = objectValue(item)
          for (const child of (field.child ?? field).children ?? []) {
            const o = overrides[name]?.fields?.[child.name] ?? {}
            if (child.readOnly || o.hidden?.(row)) continue
            const sub = resolveVariant(child, row)
            if (sub.variants && !sub.children?.length) continue
            const m = runRules(rulesFor(sub, chooseWidget(sub, o), o), row[child.name], row)
            if (m) found[`${name}.${i}.${child.name}`] = m
          }
        })
      }
    }
    if (Object.keys(found).length > 0) return { errors: found, topErrors: [], shape }
    const rendered = fields.filter((f) => order.includes(f.name))
    let body: FormValues
    try {
      body = buildPayload(rendered, overrides, all, { visible: (n) => !overrides[n]?.hidden?.(all), encrypt: encryptForServer })
    } catch (e) {
      throw { message: describeError(e) }
    }
    return { errors: {}, topErrors: [], body: transform ? transform(body, all) : body, shape }
  }

  /** The machine's `save`: the verb of the form's kind; a refusal as the machine reads it. */
  const save = async (body: FormValues, confirmed = false): Promise<Row> => {
    try {
      return single
        ? await saveObject(url, opts.updateMethod === 'PUT' ? 'put' : 'patch', body)
        : id === undefined
        ? await createResource(url, body, { cloneFrom })
        : opts.updateMethod === 'PATCH' ? await patchResource(url, id, body) : await updateResource(url, id, body)
    } catch (e) {
      // A write that needs a fresh confirmation of the user (a resource with a secret guard: the server's confirm
      // answer): the confirmation dialog, then the same save once more.
      if (!confirmed && !single && isConfirmAnswer(e)) {
        const outcome = await askConfirm(`${url}confirm-check/`)
        if (outcome.status === 'confirmed') return save(body, true)
      }
      throw e instanceof ApiError && e.status === 400 ? { data: e.data, message: describeError(e) } : { message: describeError(e) }
    }
  }
  useEffect(() => {
    entry.setLogic({ validate, save })
  })

  const submit = useCallback(async (): Promise<Row | undefined> => {
    actor.send({ type: 'SUBMIT' })
    if (!actor.getSnapshot().matches('validating')) return undefined
    const end = await waitFor(actor, (s) => s.matches('saved') || s.matches('editing') || s.matches('failed'))
    const saved = end.matches('saved') ? (end.context.saved as Row) : undefined
    if (saved && single) {
      setSecretsSet(secretsOf(saved))
      // the page stays: show what the server saved (it may adjust values that depend on each other)
      actor.send({ type: 'START', values: initialValues(fields, overrides, saved, initial), labels: actor.getSnapshot().context.labels })
    }
    return saved
  }, [actor, single, fields, overrides, initial])

  const loadError = snapshot.matches('loadFailed') ? snapshot.context.loadError : meta.status === 'error' ? meta.error : object.status === 'error' ? object.error : undefined
  return {
    confirmDialog,
    mode,
    state: stateName(snapshot.value),
    status: loadError !== undefined ? 'error' : status,
    loadError,
    fields,
    groups,
    values,
    errors,
    topErrors: [...topErrors],
    labels,
    saving: snapshot.matches('submitting'),
    errorTick,
    field: (name) => byName.get(name),
    widgetOf,
    visible,
    setValue,
    blur,
    submit,
    reset: () => actor.send({ type: 'START', ...startingValues() }),
    order,
    overrides,
    missingSources,
  }
}

/** The machine's state as one word (`loading.ready` for a nested one). */
function stateName(value: string | Record<string, unknown>): string {
  if (typeof value === 'string') return value
  const [parent, child] = Object.entries(value)[0] ?? ['', '']
  return `${parent}.${stateName(child as string | Record<string, unknown>)}`
}

/**
 * The form's actor: the one its route's loader started for this object, else a new one; stopped when the form
 * goes (a moment later, so React's development double mount keeps it).
 */
function useFormActor(target: FormTarget): FormActorEntry {
  const [entry] = useState(() => takeFormActor(target))
  useEffect(() => {
    clearTimeout(stopping.get(entry))
    return () => {
      stopping.set(entry, setTimeout(() => entry.actor.stop(), 0))
    }
  }, [entry])
  return entry
}
const stopping = new WeakMap<FormActorEntry, ReturnType<typeof setTimeout>>()
