/**
 * Asset → More information (`/console/assets/assets/detail/:id/update`, lina's AssetMoreInformationEdit): a host's
 * hardware facts — gathered over SSH by "Refresh hardware info", or entered by hand here — saved with
 * `PATCH /api/v1/assets/hosts/<id>/ {gathered_info}`. The field list and labels come from the hosts' OPTIONS.
 */
import { Button, Card, Field, Input, makeStyles, MessageBar, MessageBarBody, Spinner, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { useEffect, useState } from 'react'
import { fetchHost, HOSTS_URL, saveGatheredInfo } from '../../../api/assets.ts'
import { ApiError } from '../../../api/client.ts'
import { loadMetadata, type FieldMeta } from '../../../api/metadata.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { useGo } from '../../../ui/common/navigation.tsx'
import { notify } from '../../../ui/common/notify.tsx'
import { Page } from '../../../ui/common/Page.tsx'

const useStyles = makeStyles({
  card: { maxWidth: '880px', padding: tokens.spacingHorizontalXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 260px), 1fr))', gap: tokens.spacingHorizontalL },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS },
})

export function AssetMoreInformationPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const { id = '' } = useParams({ strict: false }) as { id?: string }
  const [host, setHost] = useState<Record<string, unknown> | null>(null)
  const [fields, setFields] = useState<FieldMeta[]>([])
  const [values, setValues] = useState<Record<string, string>>({})
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let live = true
    Promise.all([fetchHost(id), loadMetadata(HOSTS_URL)]).then(([h, meta]) => {
      if (!live) return
      const info = (h.gathered_info && typeof h.gathered_info === 'object' ? h.gathered_info : {}) as Record<string, unknown>
      const children = (meta.actions.PUT ?? meta.actions.POST ?? []).find((f) => f.name === 'gathered_info')?.children ?? []
      setFields(children)
      setValues(Object.fromEntries(children.map((f) => [f.name, info[f.name] === undefined || info[f.name] === null ? '' : String(info[f.name])])))
      setHost(h)
    }, (e: unknown) => live && setError(describeError(e)))
    return () => { live = false }
  }, [id])

  const back = () => go(`/console/assets/assets/${id}`)
  const save = async () => {
    setBusy(true)
    setErrors({})
    setError('')
    try {
      await saveGatheredInfo(id, values)
      notify('success', t`Saved`)
      back()
    } catch (e) {
      const body = e instanceof ApiError && e.data && typeof e.data === 'object' ? (e.data as Record<string, unknown>).gathered_info : undefined
      if (body && typeof body === 'object' && !Array.isArray(body)) {
        setErrors(Object.fromEntries(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)])))
      } else setError(describeError(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Page title={t`Update asset`}>
      {error && <MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar>}
      {!host && !error && <Spinner label={t`Loading…`} />}
      {host && (
        <Card className={styles.card}>
          <form className={styles.card} style={{ padding: 0 }} onSubmit={(e) => { e.preventDefault(); void save() }}>
            <div className={styles.grid}>
              <Field label={t`Name`}><Input readOnly value={String(host.name ?? '')} /></Field>
              <Field label={t`Address`}><Input readOnly value={String(host.address ?? '')} /></Field>
            </div>
            <div className={styles.grid}>
              {fields.map((f) => (
                <Field key={f.name} label={f.label} validationMessage={errors[f.name]}>
                  <Input value={values[f.name] ?? ''} maxLength={f.maxLength} onChange={(_, d) => setValues((v) => ({ ...v, [f.name]: d.value }))} />
                </Field>
              ))}
            </div>
            <div className={styles.actions}>
              <Button appearance="primary" type="submit" disabled={busy}>{t`Save`}</Button>
              <Button onClick={back}>{t`Cancel`}</Button>
            </div>
          </form>
        </Card>
      )}
    </Page>
  )
}
