/**
 * Profile → Preferences (`/profile/setting`): the user's preferences of the console (`lina`: language, theme,
 * default view, time zone) and of the web terminal (`luna`: RDP graphics and SSH command line; `koko`: the SSH
 * terminal), drawn from the preference API's OPTIONS (a control per field type) and saved on each change. The
 * console's own take effect at once in this browser and are applied again after every login (appliedPreferences).
 */
import { Card, Checkbox, Field, Input, makeStyles, Select, Spinner, Subtitle1, Switch, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { ApiError } from '../../api/client.ts'
import { loadMetadata, type FieldMeta, type ResourceMeta } from '../../api/metadata.ts'
import { fetchPreferences, patchPreferences, PREFERENCE_URL, type Preferences } from '../../api/profile.ts'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { applyConsolePreferences } from '../../app/preferences.ts'

const CATEGORIES = ['lina', 'luna', 'koko'] as const

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 420px), 1fr))', gap: tokens.spacingHorizontalL },
  card: { padding: tokens.spacingHorizontalL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
})

interface Loaded { category: string; meta: ResourceMeta; values: Preferences }

function Control({ field, value, error, onChange }: { field: FieldMeta; value: unknown; error?: string; onChange: (v: unknown) => void }) {
  const label = field.label || field.name
  if (field.type === 'boolean') {
    return <Field validationMessage={error}><Switch label={label} checked={value === true} onChange={(_, d) => onChange(d.checked)} /></Field>
  }
  const listChoices = field.child?.choices ?? field.choices
  if (field.type === 'list' && listChoices?.length) {
    const list = Array.isArray(value) ? value.map(String) : []
    return (
      <Field label={label} validationMessage={error}>
        <div role="group" aria-label={label}>
          {listChoices.map((c) => (
            <Checkbox key={String(c.value)} label={c.label} checked={list.includes(String(c.value))}
              onChange={(_, d) => onChange(d.checked ? [...list, String(c.value)] : list.filter((x) => x !== String(c.value)))} />
          ))}
        </div>
      </Field>
    )
  }
  if (field.choices?.length) {
    return (
      <Field label={label} validationMessage={error}>
        <Select value={String(value ?? '')} onChange={(_, d) => onChange(field.choices!.find((c) => String(c.value) === d.value)?.value ?? d.value)}>
          {field.choices.map((c) => <option key={String(c.value)} value={String(c.value)}>{c.label}</option>)}
        </Select>
      </Field>
    )
  }
  const numeric = field.type === 'integer' || field.type === 'float'
  return (
    <Field label={label} hint={field.helpText} validationMessage={error}>
      <Input type={numeric ? 'number' : 'text'} min={field.minValue} max={field.maxValue} defaultValue={String(value ?? '')}
        onBlur={(e) => { const v = e.currentTarget.value; if (v !== String(value ?? '')) onChange(numeric ? Number(v) : v) }} />
    </Field>
  )
}

export function PreferencesPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const [loaded, setLoaded] = useState<Loaded[] | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [loadError, setLoadError] = useState('')

  useEffect(() => {
    let live = true
    Promise.all(CATEGORIES.map(async (category) => ({
      category,
      meta: await loadMetadata(`${PREFERENCE_URL}?category=${category}`),
      values: await fetchPreferences(category),
    }))).then((l) => live && setLoaded(l), (e: unknown) => live && setLoadError(describeError(e)))
    return () => { live = false }
  }, [])

  const save = async (category: string, group: string, name: string, value: unknown) => {
    const key = `${category}.${group}.${name}`
    try {
      const values = await patchPreferences(category, { [group]: { [name]: value } })
      setLoaded((l) => l?.map((x) => (x.category === category ? { ...x, values } : x)) ?? l)
      setErrors((e) => { const { [key]: _, ...rest } = e; return rest })
      if (category === 'lina') await applyConsolePreferences(values)
      notify('success', t`Saved`)
    } catch (e) {
      const fieldErrors = e instanceof ApiError ? (e.data as Record<string, Record<string, string[]>> | undefined)?.[group]?.[name] : undefined
      if (fieldErrors) setErrors((x) => ({ ...x, [key]: fieldErrors.join(' ') }))
      else notify('error', describeError(e))
    }
  }

  return (
    <Page title={t`Preferences`} back={false}>
      {loadError && <div role="alert">{loadError}</div>}
      {!loaded && !loadError && <Spinner label={t`Loading…`} />}
      {loaded && (
        <div className={styles.grid}>
          {loaded.flatMap(({ category, meta, values }) => (meta.actions.PUT ?? []).map((group) => (
            <Card key={`${category}.${group.name}`} className={styles.card}>
              <Subtitle1 as="h2">{meta.name} · {group.label}</Subtitle1>
              {(group.children ?? []).filter((f) => !f.readOnly).map((f) => (
                <Control key={f.name} field={f} value={values[group.name]?.[f.name]} error={errors[`${category}.${group.name}.${f.name}`]}
                  onChange={(v) => void save(category, group.name, f.name, v)} />
              ))}
            </Card>
          )))}
        </div>
      )}
    </Page>
  )
}
