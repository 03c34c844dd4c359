/**
 * Ticket flows: the list (the generic list; JumpServer has no create and no delete) and the editor: one or two
 * levels, each with its strategy and, for custom users, its users. Editing the root flow from an organization
 * saves that organization's copy (the server makes it).
 */
import { Button, Field, Radio, RadioGroup, Select, Spinner, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useParams } from '@tanstack/react-router'
import { useEffect, useMemo, useState } from 'react'
import { ApiError } from '../../api/client.ts'
import { fetchFlow, saveFlow, TICKET_FLOWS_URL, type TicketFlow } from '../../api/tickets.ts'
import { describeError } from '../../ui/common/errors.ts'
import { useGo } from '../../ui/common/navigation.tsx'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { RelatedPicker } from '../../ui/common/RelatedPicker.tsx'
import { defineResource } from '../../ui/common/resource.ts'
import { ListTable } from '../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../ui/list/types.ts'
import { CellValue } from '../../ui/table/CellValue.tsx'

const useStyles = makeStyles({
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL, maxWidth: '720px' },
  level: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: tokens.spacingHorizontalM, border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium },
})

const STRATEGIES = [
  { value: 'super_admin', label: msg`Super admin` }, { value: 'org_admin', label: msg`Org admin` },
  { value: 'super_org_admin', label: msg`Super admin and org admin` }, { value: 'custom_user', label: msg`Custom users` },
] as const

export const flowResource = () => defineResource({
  url: TICKET_FLOWS_URL,
  routes: {
    list: { name: 'TicketFlow', path: '/tickets/flow' },
    update: { name: 'TicketFlowUpdate', path: '/tickets/flow/:id/update' },
    detail: { name: 'FlowDetail', path: '/tickets/flow/:id' },
  },
  perms: { view: 'tickets.view_ticketflow', add: 'tickets.add_ticketflow', change: 'tickets.change_ticketflow', delete: 'tickets.delete_ticketflow' },
  typeLabel: msg`Ticket flow`,
  defaultOrder: null,
})

const flowList = (): ListConfig => ({
  resource: flowResource(),
  // the flows that apply here (an organization's copy hides the root's of the same type)
  url: `${TICKET_FLOWS_URL}?effective=1`,
  hiddenFilters: ['effective'],
  tableName: 'TicketFlow',
  label: msg`Ticket flows`,
  defaultOrder: null,
  rowName: (row) => String((row.type as { label?: string } | undefined)?.label ?? ''),
  columns: {
    min: ['type'],
    defaults: ['type', 'approval_level', 'org_name', 'created_by', 'date_updated'],
    exclude: ['rules'],
    overrides: { type: { render: (row) => <CellValue kind="detailLink" value={String((row.type as { label?: string }).label ?? '')} to={`/tickets/flow/${String(row.id)}/update`} /> } },
  },
  commands: { overrides: { create: null, delete: null, clone: null, bulkDelete: null, bulkUpdate: null } },
  tools: { import: false, export: false },
})

export function FlowListPage() {
  const { i18n } = useLingui()
  const config = useMemo(() => flowList(), [])
  return <Page title={i18n._(msg`Ticket flows`)} back={false}><ListTable config={config} /></Page>
}

interface Level { strategy: string; assignees: string[]; labels: Record<string, string> }

export function FlowEditPage() {
  const { i18n } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const { id = '' } = useParams({ strict: false }) as { id?: string }
  const [flow, setFlow] = useState<TicketFlow | null>(null)
  const [approvalLevel, setApprovalLevel] = useState(1)
  const [levels, setLevels] = useState<Level[]>([])
  const [error, setError] = useState<string | null>(null)
  const [fieldErrors, setFieldErrors] = useState<string>('')
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    const ac = new AbortController()
    fetchFlow(id, ac.signal).then((f) => {
      setFlow(f)
      setApprovalLevel(f.approval_level)
      const ls: Level[] = f.rules.map((r) => ({
        strategy: r.strategy.value, assignees: r.strategy.value === 'custom_user' ? r.assignees_read_only : [],
        labels: Object.fromEntries(r.assignees_read_only.map((a, i) => [a, r.assignees_display[i] ?? a])),
      }))
      while (ls.length < 2) ls.push({ strategy: 'super_admin', assignees: [], labels: {} })
      setLevels(ls)
    }, (e: unknown) => { if (!ac.signal.aborted) setError(describeError(e)) })
    return () => ac.abort()
  }, [id])

  if (error) return <Page title={i18n._(msg`Update ticket flow`)}><MessageBar intent="error"><MessageBarBody>{error}</MessageBarBody></MessageBar></Page>
  if (!flow) return <Page title={i18n._(msg`Update ticket flow`)}><Spinner label={i18n._(msg`Loading…`)} /></Page>

  const save = async (e: React.FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setFieldErrors('')
    try {
      await saveFlow(id, { approval_level: approvalLevel, rules: levels.slice(0, approvalLevel).map((l) => ({ strategy: l.strategy, assignees: l.strategy === 'custom_user' ? l.assignees : [] })) })
      notify('success', i18n._(msg`Saved`))
      go('/tickets/flow')
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) setFieldErrors(JSON.stringify(err.data))
      else notify('error', describeError(err))
    } finally {
      setBusy(false)
    }
  }
  const setLevel = (i: number, l: Partial<Level>) => setLevels(levels.map((x, j) => (j === i ? { ...x, ...l } : x)))

  return (
    <Page title={`${i18n._(msg`Update ticket flow`)}: ${flow.type.label}`}>
      <form className={styles.form} onSubmit={(e) => void save(e)}>
        <Field label={i18n._(msg`Approval level`)}>
          <RadioGroup layout="horizontal" value={String(approvalLevel)} onChange={(_, d) => setApprovalLevel(Number(d.value))}>
            <Radio value="1" label={i18n._(msg`One level`)} />
            <Radio value="2" label={i18n._(msg`Two levels`)} />
          </RadioGroup>
        </Field>
        {levels.slice(0, approvalLevel).map((l, i) => (
          <fieldset key={i} className={styles.level}>
            <legend>{i18n._(msg`Level ${i + 1}`)}</legend>
            <Field label={i18n._(msg`Approve strategy`)}>
              <Select value={l.strategy} onChange={(_, d) => setLevel(i, { strategy: d.value })}>
                {STRATEGIES.map((s) => <option key={s.value} value={s.value}>{i18n._(s.label)}</option>)}
              </Select>
            </Field>
            {l.strategy === 'custom_user' && (
              <Field label={i18n._(msg`Assignees`)} required>
                <RelatedPicker multiple source={{ url: '/api/v1/users/users/?oid=root', label: (r) => `${String(r.name)}(${String(r.username)})` }}
                  value={l.assignees} knownLabels={l.labels} onChange={(v) => setLevel(i, { assignees: (v as string[]) ?? [] })} />
              </Field>
            )}
          </fieldset>
        ))}
        {fieldErrors && <div role="alert">{fieldErrors}</div>}
        <div><Button appearance="primary" type="submit" disabled={busy}>{i18n._(msg`Save`)}</Button></div>
      </form>
    </Page>
  )
}
