/**
 * "Request asset permission": title, assets and nodes of the current organization (suggestion pickers an ordinary
 * user may use), accounts, actions, dates (the expiry defaults to TICKET_AUTHORIZE_DEFAULT_TIME), comment →
 * `POST apply-asset-tickets/open/`; field errors of the server under their fields.
 */
import { Button, Checkbox, Field, Input, Textarea, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useMemo, useState } from 'react'
import { ApiError } from '../../api/client.ts'
import { openAssetRequest } from '../../api/tickets.ts'
import { useAccess } from '../../ui/common/access.tsx'
import { describeError } from '../../ui/common/errors.ts'
import { useGo } from '../../ui/common/navigation.tsx'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { RelatedPicker } from '../../ui/common/RelatedPicker.tsx'
import { useSettings } from '../../shell/useShell.ts'
import { detailPathOf } from './detailPaths.ts'
import { ACTION_CHOICES, defaultExpiry, fromLocalInput, toLocalInput } from './requestModel.ts'

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, maxWidth: '720px' },
  row: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
})

const errorOf = (errors: Record<string, unknown>, k: string) => (Array.isArray(errors[k]) ? (errors[k] as unknown[]).map(String).join(' ') : undefined)

export function RequestAssetPage() {
  const { i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const settings = useSettings()
  const go = useGo()
  const now = useMemo(() => new Date(), [])
  const [title, setTitle] = useState('')
  const [assets, setAssets] = useState<string[]>([])
  const [nodes, setNodes] = useState<string[]>([])
  const [accounts, setAccounts] = useState('@ALL')
  const [actions, setActions] = useState<string[]>(ACTION_CHOICES.map((a) => a.value))
  const [start, setStart] = useState(toLocalInput(now.toISOString()))
  const [expired, setExpired] = useState(toLocalInput(defaultExpiry(now, settings.TICKET_AUTHORIZE_DEFAULT_TIME, settings.TICKET_AUTHORIZE_DEFAULT_TIME_UNIT).toISOString()))
  const [comment, setComment] = useState('')
  const [errors, setErrors] = useState<Record<string, unknown>>({})
  const [busy, setBusy] = useState(false)

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setErrors({})
    try {
      const t = await openAssetRequest({
        title, org_id: access.orgId ?? '', apply_assets: assets, apply_nodes: nodes, apply_actions: actions, comment,
        apply_accounts: accounts.split(',').map((a) => a.trim()).filter(Boolean),
        apply_date_start: fromLocalInput(start) ?? '', apply_date_expired: fromLocalInput(expired) ?? '',
      })
      notify('success', i18n._(msg`Request sent`))
      go(detailPathOf('apply_asset', t.id))
    } catch (err) {
      if (err instanceof ApiError && err.status === 400 && err.data && typeof err.data === 'object') setErrors(err.data as Record<string, unknown>)
      else notify('error', describeError(err))
    } finally {
      setBusy(false)
    }
  }
  const other = Object.keys(errors).filter((k) => !['title', 'apply_assets', 'apply_nodes', 'apply_accounts', 'apply_actions', 'apply_date_start', 'apply_date_expired', 'comment'].includes(k))

  return (
    <Page title={i18n._(msg`Request asset permission`)}>
      <form className={styles.form} onSubmit={(e) => void submit(e)} noValidate>
        <Field label={i18n._(msg`Title`)} required validationMessage={errorOf(errors, 'title')}>
          <Input value={title} onChange={(_, d) => setTitle(d.value)} maxLength={256} />
        </Field>
        <Field label={i18n._(msg`Assets`)} validationMessage={errorOf(errors, 'apply_assets')}>
          <RelatedPicker multiple source={{ url: '/api/v1/assets/assets/suggestions/', label: (r) => `${String(r.name)}(${String(r.address ?? '')})` }} value={assets} onChange={(v) => setAssets((v as string[]) ?? [])} />
        </Field>
        <Field label={i18n._(msg`Nodes`)} validationMessage={errorOf(errors, 'apply_nodes')}>
          <RelatedPicker multiple source={{ url: '/api/v1/assets/nodes/suggestions/', label: (r) => String(r.full_value ?? r.name) }} value={nodes} onChange={(v) => setNodes((v as string[]) ?? [])} />
        </Field>
        <Field label={i18n._(msg`Accounts`)} hint={i18n._(msg`Comma-separated: usernames, @ALL, @INPUT, @USER`)} validationMessage={errorOf(errors, 'apply_accounts')}>
          <Input value={accounts} onChange={(_, d) => setAccounts(d.value)} />
        </Field>
        <Field label={i18n._(msg`Actions`)} validationMessage={errorOf(errors, 'apply_actions')}>
          <div className={styles.row} role="group" aria-label={i18n._(msg`Actions`)}>
            {ACTION_CHOICES.map((a) => (
              <Checkbox key={a.value} label={i18n._(a.label)} checked={actions.includes(a.value)}
                onChange={(_, d) => setActions(d.checked ? [...actions, a.value] : actions.filter((x) => x !== a.value))} />
            ))}
          </div>
        </Field>
        <div className={styles.row}>
          <Field label={i18n._(msg`Date start`)} required validationMessage={errorOf(errors, 'apply_date_start')}>
            <Input type="datetime-local" value={start} onChange={(_, d) => setStart(d.value)} />
          </Field>
          <Field label={i18n._(msg`Date expired`)} required validationMessage={errorOf(errors, 'apply_date_expired')}>
            <Input type="datetime-local" value={expired} onChange={(_, d) => setExpired(d.value)} />
          </Field>
        </div>
        <Field label={i18n._(msg`Comment`)} validationMessage={errorOf(errors, 'comment')}>
          <Textarea value={comment} onChange={(_, d) => setComment(d.value)} maxLength={4096} />
        </Field>
        {other.length > 0 && <div role="alert">{other.map((k) => errorOf(errors, k) ?? String(errors[k])).join(' ')}</div>}
        <div><Button appearance="primary" type="submit" disabled={busy}>{i18n._(msg`Submit`)}</Button></div>
      </form>
    </Page>
  )
}
