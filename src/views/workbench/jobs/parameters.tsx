/**
 * Job parameters in the console (docs/jobs.md "Parameters"): the job form's editor of the definitions (name, label,
 * text or a choice, default, options), and the dialog that asks their values before a run (the server checks them
 * again and answers field errors per parameter, shown under each field).
 */
import {
  Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, makeStyles, mergeClasses, Option, Text, Textarea, tokens,
} from '@fluentui/react-components'
import { AddRegular, DeleteRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState, type ReactElement } from 'react'
import { parametersOf, runJob, type Job, type ParameterDefine, type ParametersDefine } from '../../../api/jobs.ts'
import { describeError } from '../../../ui/common/errors.ts'

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: {
    display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'end', padding: tokens.spacingHorizontalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium,
  },
  name: { width: '160px', maxWidth: '100%' },
  fill: { width: '100%', minWidth: 0 },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  error: { color: tokens.colorPaletteRedForeground1 },
  mono: { fontFamily: tokens.fontFamilyMonospace },
})

/** One definition as the form edits it; options one per line, `value` or `value | label`. */
export interface ParameterRow { key: number; name: string; label: string; type: 'text' | 'select'; default: string; options: string }

let nextKey = 1
export const newParameterRow = (): ParameterRow => ({ key: nextKey++, name: '', label: '', type: 'text', default: '', options: '' })

export function rowsOf(define: ParametersDefine): ParameterRow[] {
  return Object.entries(define).map(([name, d]) => ({
    key: nextKey++, name, label: d.label === name ? '' : d.label, type: d.type, default: d.default ?? '',
    options: (d.options ?? []).map((o) => (o.label && o.label !== o.value ? `${o.value} | ${o.label}` : o.value)).join('\n'),
  }))
}

export function defineOf(rows: ParameterRow[]): ParametersDefine {
  const out: ParametersDefine = {}
  for (const r of rows) {
    const d: ParameterDefine = { label: r.label.trim() || r.name.trim(), type: r.type, default: r.default }
    if (r.type === 'select') {
      d.options = r.options.split('\n').map((l) => l.trim()).filter(Boolean).map((l) => {
        const [value, ...label] = l.split(' | ')
        return { value: value!.trim(), label: label.join(' | ').trim() || value!.trim() }
      })
    }
    out[r.name.trim()] = d
  }
  return out
}

/** The job form's parameter definitions. */
export function ParametersEditor({ rows, onChange, error, kind }: { rows: ParameterRow[]; onChange: (rows: ParameterRow[]) => void; error?: string; kind: 'adhoc' | 'playbook' }) {
  const { t } = useLingui()
  const styles = useStyles()
  const set = (key: number, patch: Partial<ParameterRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)))
  const reference = '{{ name }}'
  return (
    <Field label={t`Parameters`} validationState={error ? 'error' : 'none'} validationMessage={error}
      hint={kind === 'adhoc'
        ? t`Asked before each run. Write ${reference} in the command: the value takes its place as one quoted shell word.`
        : t`Asked before each run, and given to the playbook as variables of the same names.`}>
      <div className={styles.list} role="group" aria-label={t`Parameters`}>
        {rows.map((r, i) => (
          <div key={r.key} className={styles.row} role="group" aria-label={t`Parameter ${i + 1}`}>
            <Field label={t`Name`} required className={styles.name}>
              <Input className={mergeClasses(styles.mono, styles.fill)} value={r.name} onChange={(_, d) => set(r.key, { name: d.value })} placeholder="name" />
            </Field>
            <Field label={t`Label`}>
              <Input value={r.label} onChange={(_, d) => set(r.key, { label: d.value })} />
            </Field>
            <Field label={t`Kind`}>
              <Dropdown value={r.type === 'select' ? t`Choice` : t`Text`} selectedOptions={[r.type]} onOptionSelect={(_, d) => set(r.key, { type: d.optionValue === 'select' ? 'select' : 'text' })}>
                <Option value="text">{t`Text`}</Option>
                <Option value="select">{t`Choice`}</Option>
              </Dropdown>
            </Field>
            <Field label={t`Default`}>
              <Input value={r.default} onChange={(_, d) => set(r.key, { default: d.value })} />
            </Field>
            {r.type === 'select' && (
              <Field label={t`Options`} hint={t`One per line: value, or value | label`}>
                <Textarea className={styles.mono} value={r.options} onChange={(_, d) => set(r.key, { options: d.value })} rows={3} resize="vertical" />
              </Field>
            )}
            <Button appearance="subtle" icon={<DeleteRegular />} aria-label={t`Remove parameter ${r.name || i + 1}`} onClick={() => onChange(rows.filter((x) => x.key !== r.key))} />
          </div>
        ))}
        <div>
          <Button icon={<AddRegular />} onClick={() => onChange([...rows, newParameterRow()])}>{t`Add parameter`}</Button>
        </div>
      </div>
    </Field>
  )
}

type RunnableJob = Pick<Job, 'id' | 'name' | 'use_parameter_define' | 'parameters_define'>

/**
 * Running a saved job: at once when it has no parameters, else after a dialog asks their values. `started` gets the
 * new execution; `failed` an error of a run without a dialog (a dialog shows its own).
 */
export function useRunJob(started: (execution: { id: string; task_id: string }) => void, failed: (message: string) => void, cancelled?: () => void): [ReactElement, (job: RunnableJob) => Promise<void>] {
  const [job, setJob] = useState<RunnableJob | undefined>()
  const run = async (j: RunnableJob) => {
    if (Object.keys(parametersOf(j)).length) {
      setJob(j)
      return
    }
    try {
      started(await runJob(j.id))
    } catch (e) {
      failed(describeError(e))
    }
  }
  const dialog = <RunJobDialog key="run-job" job={job} onClose={() => { setJob(undefined); cancelled?.() }} started={(x) => { setJob(undefined); started(x) }} />
  return [dialog, run]
}

function RunJobDialog({ job, onClose, started }: { job: RunnableJob | undefined; onClose: () => void; started: (execution: { id: string; task_id: string }) => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const define = job ? parametersOf(job) : {}
  const [values, setValues] = useState<Record<string, string>>({})
  const [shownFor, setShownFor] = useState<string | undefined>()
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  // Each opening starts from the defaults.
  if (job && shownFor !== job.id) {
    setShownFor(job.id)
    setValues(Object.fromEntries(Object.entries(define).map(([k, d]) => [k, d.default ?? ''])))
    setErrors({})
    setError('')
  }
  if (!job && shownFor !== undefined) setShownFor(undefined)
  const submit = async () => {
    if (!job) return
    setBusy(true)
    setErrors({})
    setError('')
    try {
      started(await runJob(job.id, values))
    } catch (e) {
      const data = (e as { data?: { parameters?: unknown } }).data
      const p = data?.parameters
      if (p && typeof p === 'object' && !Array.isArray(p)) {
        setErrors(Object.fromEntries(Object.entries(p as Record<string, unknown>).map(([k, v]) => [k, Array.isArray(v) ? v.join(' ') : String(v)])))
        const unknown = Object.keys(p).filter((k) => !(k in define))
        setError(unknown.length ? describeError(e) : t`Check the values below.`)
      } else setError(describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog open={!!job} onOpenChange={(_, d) => { if (!d.open && !busy) onClose() }}>
      <DialogSurface>
        <form noValidate onSubmit={(e) => { e.preventDefault(); void submit() }}>
          <DialogBody>
            <DialogTitle>{t`Run ${job?.name ?? ''}`}</DialogTitle>
            <DialogContent className={styles.form}>
              <Text>{t`This job asks for the values of its parameters.`}</Text>
              {Object.entries(define).map(([name, d]) => (
                <Field key={name} label={d.label || name} required validationState={errors[name] ? 'error' : 'none'} validationMessage={errors[name]}>
                  {d.type === 'select' ? (
                    <Dropdown value={d.options?.find((o) => o.value === values[name])?.label ?? values[name] ?? ''} selectedOptions={values[name] ? [values[name]] : []}
                      onOptionSelect={(_, x) => setValues((v) => ({ ...v, [name]: x.optionValue ?? '' }))}>
                      {(d.options ?? []).map((o) => <Option key={o.value} value={o.value}>{o.label}</Option>)}
                    </Dropdown>
                  ) : (
                    <Input value={values[name] ?? ''} onChange={(_, x) => setValues((v) => ({ ...v, [name]: x.value }))} />
                  )}
                </Field>
              ))}
              {error && <Text role="alert" className={styles.error}>{error}</Text>}
            </DialogContent>
            <DialogActions>
              <Button type="submit" appearance="primary" disabled={busy}>{t`Run`}</Button>
              <Button disabled={busy} onClick={onClose}>{t`Cancel`}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  )
}
