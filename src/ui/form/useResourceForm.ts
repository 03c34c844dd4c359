/**
 * The form's state and behaviour, shared by the create/update page and the edit dialog: metadata from
 * `actions.POST` (create, clone) or `actions.PUT` (update), the object (update, clone), values, validation on
 * blur/change and before submit, payload with secrets encrypted, and server errors mapped onto fields.
 * Everything the user typed stays on a failed save.
 */
import { msg, t } from '@lingui/core/macro'
import Cookies from 'js-cookie'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { ApiError } from '../../api/client.ts'
import { encryptSecret } from '../../api/crypto.ts'
import { formFields, type FieldMeta } from '../../api/metadata.ts'
import { objectQuery, singleObjectQuery } from '../../api/queries.ts'
import { createResource, detailUrl, patchResource, saveObject, updateResource, withQuery, type Row, type RowId } from '../../api/resources.ts'
import { useAccess } from '../common/access.tsx'
import { describeError } from '../common/errors.ts'
import type { ResourceDef } from '../common/resource.ts'
import { reportMissingSources, withRelatedSources } from './related.ts'
import { useCached } from '../common/useCached.ts'
import { useMetadata } from '../common/useMetadata.ts'
import { buildPayload, cloneValues, initialValues, layoutGroups, relatedLabels, toFormValue, type FieldGroup } from './formModel.ts'
import { flattenServerErrors } from './serverErrors.ts'
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

export interface ResourceForm {
  mode: FormMode
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
  const mode: FormMode = single ? (opts.view ? 'view' : 'update') : id === undefined ? 'create' : opts.view ? 'view' : 'update'
  const metaUrl = single ? url : id !== undefined ? detailUrl(url, id) : cloneFrom !== undefined ? withQuery(url, { clone_from: cloneFrom }) : url
  const meta = useMetadata(metaUrl)
  const objectId = id ?? cloneFrom
  const { orgId } = useAccess()
  const object = useCached(single ? singleObjectQuery(url, orgId) : objectId === undefined ? undefined : objectQuery(url, objectId, orgId))

  const methods = useMemo(() => (id !== undefined || single ? ['PUT', 'PATCH'] as const : ['POST'] as const), [id, single])
  const baseFields = useMemo(() => formFields(meta.data, [...methods]), [meta.data, methods])
  const [values, setValues] = useState<FormValues>({})
  // Fields whose sub-fields depend on other fields' values (`childrenFrom`): the metadata read again with those
  // values in the query gives their children; until a value is chosen (or when there are none) they are hidden.
  const sources = useMemo(() => [...new Set(baseFields.flatMap((f) => (f.childrenFrom ? [f.childrenFrom] : [])))], [baseFields])
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

  const [labels, setLabels] = useState<Record<string, Record<string, string>>>({})
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [topErrors, setTopErrors] = useState<string[]>([])
  const [saving, setSaving] = useState(false)
  const [errorTick, setErrorTick] = useState(0)
  const [ready, setReady] = useState(false)

  const objectReady = (objectId === undefined && !single) || object.status === 'ok'
  const start = useCallback(() => {
    const raw = object.data && cloneFrom !== undefined && id === undefined ? cloneValues(object.data, cloneMarker()) : object.data
    setValues(initialValues(fields, overrides, raw, initial))
    setLabels(relatedLabels(object.data, overrides))
    setErrors({})
    setTopErrors([])
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fields, object.data, cloneFrom, id])
  useEffect(() => {
    if (meta.status === 'ok' && objectReady && !ready) {
      start()
      setReady(true)
    }
  }, [meta.status, objectReady, ready, start])

  const valuesRef = useRef(values)
  useLayoutEffect(() => {
    valuesRef.current = values
  })
  // read during render: from the rendered values, never from the ref (it catches up only after the render)
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
  useEffect(() => {
    if (!ready || !childrenKey) return
    setValues((prev) => {
      const next = { ...prev }
      for (const f of fields) {
        if (!f.childrenFrom || !f.children?.length) continue
        next[f.name] = toFormValue('nested', f, objectValue(prev[f.name]), overrides[f.name]?.fields ?? {})
      }
      valuesRef.current = next
      return next
    })
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ready, childrenKey])

  const setError = (name: string, message: string | undefined) => setErrors((prev) => {
    if ((prev[name] ?? undefined) === message) return prev
    const next = { ...prev }
    if (message) next[name] = message
    else delete next[name]
    return next
  })

  const setValue = useCallback((name: string, value: unknown) => {
    const next = { ...valuesRef.current, [name]: value }
    valuesRef.current = next
    setValues(next)
    const field = byName.get(name)
    if (field?.children?.length) setErrors((prev) => (Object.keys(prev).some((k) => k.startsWith(`${name}.`)) ? Object.fromEntries(Object.entries(prev).filter(([k]) => !k.startsWith(`${name}.`))) : prev))
    // change-validated widgets check now; text inputs once they already show an error
    if (field && (!validatesOnBlur(chooseWidget(field, overrides[name])) || errors[name])) setError(name, check(name, next))
  }, [byName, overrides, errors, check])

  const blur = useCallback((name: string) => setError(name, check(name, valuesRef.current)), [check])

  const submit = useCallback(async (): Promise<Row | undefined> => {
    const all = valuesRef.current
    const found: Record<string, string> = {}
    for (const name of order) {
      const message = check(name, all)
      if (message) found[name] = message
      // sub-fields of a nested object: their own rules, each message on its sub-field (`name.sub`)
      const field = byName.get(name)
      if (field && !message && visible(name) && chooseWidget(field, overrides[name]) === 'nested') {
        const sub = objectValue(all[name])
        for (const child of field.children ?? []) {
          if (child.readOnly) continue
          const o = overrides[name]?.fields?.[child.name] ?? {}
          const m = runRules(rulesFor(child, chooseWidget(child, o), o), sub[child.name], sub)
          if (m) found[`${name}.${child.name}`] = m
        }
      }
    }
    setErrors(found)
    setTopErrors([])
    if (Object.keys(found).length > 0) {
      setErrorTick((n) => n + 1)
      return undefined
    }
    const rendered = fields.filter((f) => order.includes(f.name))
    let body: FormValues
    try {
      body = buildPayload(rendered, overrides, all, { visible: (n) => !overrides[n]?.hidden?.(all), encrypt: encryptForServer })
    } catch (e) {
      setTopErrors([describeError(e)])
      setErrorTick((n) => n + 1)
      return undefined
    }
    if (transform) body = transform(body, all)
    setSaving(true)
    try {
      const saved = single
        ? await saveObject(url, opts.updateMethod === 'PUT' ? 'put' : 'patch', body)
        : id === undefined
        ? await createResource(url, body, { cloneFrom })
        : opts.updateMethod === 'PATCH' ? await patchResource(url, id, body) : await updateResource(url, id, body)
      if (single) {
        setSecretsSet(secretsOf(saved))
        // the page stays: show what the server saved (it may adjust values that depend on each other)
        const next = initialValues(fields, overrides, saved, initial)
        valuesRef.current = next
        setValues(next)
      }
      return saved
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) {
        const mapped = flattenServerErrors(e.data)
        const onFields: Record<string, string> = {}
        const elsewhere: string[] = [...mapped.top]
        for (const [k, v] of Object.entries(mapped.fields)) {
          const f = byName.get(k)
          const subs = Object.entries(mapped.nested ?? {}).filter(([path]) => path.startsWith(`${k}.`))
          if (f && order.includes(k) && subs.length && chooseWidget(f, overrides[k]) === 'nested') {
            // on the sub-fields the form shows; the rest (keys it has no sub-field for) on the field itself
            const shown = new Set((f.children ?? []).map((c) => c.name))
            const rest: string[] = []
            for (const [path, m] of subs) {
              const sub = path.slice(k.length + 1)
              if (shown.has(sub)) onFields[path] = m
              else rest.push(`${sub}: ${m}`)
            }
            if (rest.length) onFields[k] = rest.join('; ')
          } else if (order.includes(k)) onFields[k] = v
          else elsewhere.push(`${byName.get(k)?.label ?? k}: ${v}`)
        }
        setErrors(onFields)
        setTopErrors(elsewhere.length || Object.keys(onFields).length ? elsewhere : [describeError(e)])
      } else {
        setTopErrors([describeError(e)])
      }
      setErrorTick((n) => n + 1)
      return undefined
    } finally {
      setSaving(false)
    }
  }, [order, check, fields, overrides, transform, id, url, cloneFrom, opts.updateMethod, byName, single, initial, visible])

  const loadError = meta.status === 'error' ? meta.error : object.status === 'error' ? object.error : undefined
  return {
    mode,
    status: loadError !== undefined ? 'error' : ready ? 'ready' : 'loading',
    loadError,
    fields,
    groups,
    values,
    errors,
    topErrors,
    labels,
    saving,
    errorTick,
    field: (name) => byName.get(name),
    widgetOf,
    visible,
    setValue,
    blur,
    submit,
    reset: start,
    order,
    overrides,
    missingSources,
  }
}
