/**
 * Bulk update (spec §5, contract §4.9): choose fields from the list URL's PATCH (or PUT) metadata, give them
 * values, and PATCH the list with `[{id, …chosen fields}]` for every selected row. Errors of the items are joined
 * per field with "; ".
 */
import {
  Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, MessageBar, MessageBarBody,
  Spinner, makeStyles, tokens,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useMemo, useState } from 'react'
import { ApiError } from '../../api/client.ts'
import { formFields } from '../../api/metadata.ts'
import { bulkPatch, type Row } from '../../api/resources.ts'
import { describeError } from '../common/errors.ts'
import { notify } from '../common/notify.tsx'
import { useMetadata } from '../common/useMetadata.ts'
import type { ResourceDef } from '../common/resource.ts'
import { FieldWidget } from '../form/FieldWidget.tsx'
import { buildPayload, initialValues } from '../form/formModel.ts'
import { reportMissingSources, withRelatedSources } from '../form/related.ts'
import { flattenBulkErrors } from '../../../machines/form/server-errors.ts'
import { encryptForServer } from '../form/useResourceForm.ts'
import { runRules, type FormValues } from '../form/validators.ts'
import { chooseWidget, rulesFor } from '../form/widgets.ts'
import { SECRET_FIELDS } from '../table/formatters.ts'

const useStyles = makeStyles({
  surface: { width: '60vw', maxWidth: '60vw', '@media (max-width: 991px)': { width: '80vw', maxWidth: '80vw' } },
  choose: { display: 'flex', flexWrap: 'wrap', columnGap: tokens.spacingHorizontalL },
  fields: { display: 'grid', gap: tokens.spacingVerticalM, marginTop: tokens.spacingVerticalM },
})

const NOT_BULK = new Set(['id', 'name', 'username', 'hostname'])

/** `related`: the resource's declared picker sources, as its form takes them (labels, nodes, platform, …). */
export function BulkUpdateDialog({ url, related, rows, rowName, onClose }: {
  url: string; related?: ResourceDef['related']; rows: readonly Row[]; rowName: (row: Row) => string; onClose: (saved: boolean) => void
}) {
  const { t } = useLingui()
  const styles = useStyles()
  const meta = useMetadata(url)
  const fields = useMemo(
    () => formFields(meta.data, ['PATCH', 'PUT']).filter((f) => !f.readOnly && !NOT_BULK.has(f.name) && !SECRET_FIELDS.has(f.name)),
    [meta.data],
  )
  const overrides = useMemo(() => {
    const r = withRelatedSources(fields, {}, related)
    reportMissingSources(url, r.missing)
    return r.overrides
  }, [fields, related, url])
  const [chosen, setChosen] = useState<string[]>([])
  const [values, setValues] = useState<FormValues>({})
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [top, setTop] = useState<string[]>([])
  const [saving, setSaving] = useState(false)

  const choose = (name: string, on: boolean) => {
    const field = fields.find((f) => f.name === name)
    if (!field) return
    if (on && !(name in values)) setValues({ ...values, ...initialValues([field], {}) })
    setChosen(on ? [...chosen, name] : chosen.filter((n) => n !== name))
  }
  const picked = fields.filter((f) => chosen.includes(f.name))

  const confirm = async () => {
    const found: Record<string, string> = {}
    for (const f of picked) {
      const m = runRules(rulesFor(f, chooseWidget(f, overrides[f.name])), values[f.name], values)
      if (m) found[f.name] = m
    }
    setErrors(found)
    setTop([])
    if (Object.keys(found).length) return
    const payload = buildPayload(picked, {}, values, { visible: () => true, encrypt: encryptForServer })
    setSaving(true)
    try {
      await bulkPatch(url, rows.map((r) => ({ ...payload, id: r.id })))
      notify('success', t`Updated ${rows.length} items`)
      onClose(true)
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) {
        const mapped = flattenBulkErrors(e.data, (i) => (rows[i] ? rowName(rows[i]) : String(i + 1)))
        setErrors(mapped.fields)
        const other = Object.entries(mapped.fields).filter(([k]) => !chosen.includes(k)).map(([k, v]) => `${k}: ${v}`)
        setTop([...mapped.top, ...other].length ? [...mapped.top, ...other] : Object.keys(mapped.fields).length ? [] : [describeError(e)])
      } else setTop([describeError(e)])
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose(false)}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>{t`Update ${rows.length} selected items`}</DialogTitle>
          <DialogContent>
            {meta.status === 'loading' && <Spinner label={t`Loading…`} />}
            {meta.status === 'error' && <MessageBar intent="error"><MessageBarBody>{describeError(meta.error)}</MessageBarBody></MessageBar>}
            {top.length > 0 && <MessageBar intent="error"><MessageBarBody>{top.join('; ')}</MessageBarBody></MessageBar>}
            <div className={styles.choose} role="group" aria-label={t`Fields to update`}>
              {fields.map((f) => <Checkbox key={f.name} label={f.label} checked={chosen.includes(f.name)} onChange={(_, d) => choose(f.name, d.checked === true)} />)}
            </div>
            <div className={styles.fields}>
              {picked.map((f) => (
                <div key={f.name} data-field={f.name}>
                  <Field label={f.label} required={f.required} hint={f.helpText} validationMessage={errors[f.name]} validationState={errors[f.name] ? 'error' : 'none'}>
                    <FieldWidget field={f} widget={chooseWidget(f, overrides[f.name])} override={overrides[f.name] ?? {}} value={values[f.name]} values={values} disabled={saving}
                      onChange={(v) => setValues({ ...values, [f.name]: v })} onBlur={() => {}} />
                  </Field>
                </div>
              ))}
            </div>
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" disabled={saving} onClick={() => onClose(false)}>{t`Cancel`}</Button>
            <Button appearance="primary" disabled={saving || picked.length === 0} icon={saving ? <Spinner size="tiny" /> : undefined} onClick={() => void confirm()}>{t`Confirm`}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
