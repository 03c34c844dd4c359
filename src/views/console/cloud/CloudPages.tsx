/**
 * Cloud sync (docs/cloud.md): the Cloud center (the asset list's "Cloud sync", as lina: the sync tasks and the
 * accounts, one tab each), a sync task's detail with its history and instances, "Run" (opens the live task log)
 * and "Delete released assets", the task form (a new task may start from `?account=&node=&regions=`), and
 * "Test" on an account. The lists and the account form are the generic ones.
 */
import { Field, Input, makeStyles, Textarea, tokens } from '@fluentui/react-components'
import { ArrowSyncRegular, DeleteRegular, PlugConnectedRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useMemo } from 'react'
import { deleteReleasedAssets, runSyncTask, testCloudAccount } from '../../../api/cloud.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import type { WidgetProps } from '../../../ui/form/types.ts'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import { TabbedListPage, type ListTab } from '../../../ui/list/TabbedListPage.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { taskLogPath } from '../../../router/routes/common.ts'
import { manifestItem } from '../../entries.ts'

const runCommand: ListCommand = {
  id: 'run', scope: 'row', label: msg`Run`, icon: ArrowSyncRegular, order: 4, perms: ['xpack.change_syncinstancetask'],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      const task = await runSyncTask(String(row.id))
      notify('success', t`Sync started`)
      h.openInNewTab(taskLogPath(task))
      h.reload()
    } catch (e) {
      notify('error', t`Could not start the sync`, describeError(e))
    }
  },
}

const releaseCommand: ListCommand = {
  id: 'release', scope: 'row', label: msg`Delete released assets`, icon: DeleteRegular, order: 5, perms: ['xpack.change_syncinstancetask', 'assets.delete_asset'],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      await deleteReleasedAssets(String(row.id))
      notify('success', t`The released assets were deleted`)
      h.reload()
    } catch (e) {
      notify('error', t`Could not delete the released assets`, describeError(e))
    }
  },
}

const testCommand: ListCommand = {
  id: 'test', scope: 'row', label: msg`Test`, icon: PlugConnectedRegular, order: 4, perms: ['xpack.view_account'],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      const r = await testCloudAccount(String(row.id))
      notify('success', r.msg || t`Test successful`)
    } catch (e) {
      notify('error', t`Test failed`, describeError(e))
    }
    h.reload()
  },
}

const CLOUD_TABS: readonly ListTab[] = [
  {
    key: 'tasks',
    label: msg`Sync instance tasks`,
    perm: manifestItem('sync-instance-tasks').perms.view,
    config: () => ({
      resource: manifestItem('sync-instance-tasks').resource,
      label: msg`Sync instance tasks`,
      tableName: 'SyncInstanceTaskList',
      tools: { import: false, export: true },
      columns: { min: ['name', 'actions'], defaults: ['name', 'account', 'regions', 'node', 'is_periodic', 'date_last_sync', 'actions'] },
      commands: { extra: [runCommand], overrides: { clone: null } },
    }),
  },
  {
    key: 'accounts',
    label: msg`Cloud accounts`,
    perm: manifestItem('cloud-accounts').perms.view,
    config: () => ({
      resource: manifestItem('cloud-accounts').resource,
      label: msg`Cloud accounts`,
      tableName: 'AccountList',
      tools: { import: false, export: true },
      columns: { min: ['name', 'actions'], defaults: ['name', 'provider', 'validity', 'comment', 'date_created', 'actions'] },
      commands: { extra: [testCommand], overrides: { clone: null } },
    }),
  },
]

export function CloudCenterPage() {
  const { i18n } = useLingui()
  return <TabbedListPage title={i18n._(msg`Cloud sync`)} tabs={CLOUD_TABS} fallback="tasks" />
}

function Info({ object, fields }: DetailContext) {
  const { t } = useLingui()
  return <InfoCard title={t`Basic information`} items={detailItems(object, fields)} />
}

const NONE = { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null, import: null, export: null }
const STATUS = [msg`New`, msg`Sync`, msg`Unsync`, msg`Released`]

function History({ object, url }: DetailContext) {
  const { i18n } = useLingui()
  const config = useMemo<ListConfig>(() => ({
    resource: { ...manifestItem('sync-instance-tasks').resource, url: `${url}${encodeURIComponent(String(object.id))}/history/` },
    label: msg`History`, tableName: 'SyncInstanceTaskHistory', stateIn: 'local', defaultOrder: null,
    commands: { overrides: NONE },
    columns: {
      min: ['date_sync'], exclude: ['actions'],
      fields: [
        { name: 'date_sync', label: msg`Date sync`, type: 'datetime' }, { name: 'status', label: msg`Status` },
        { name: 'new', label: msg`New` }, { name: 'sync', label: msg`Sync` }, { name: 'unsync', label: msg`Unsync` }, { name: 'released', label: msg`Released` },
        { name: 'reason', label: msg`Reason` },
      ],
      overrides: {
        status: { render: (r) => (r.status === 1 ? i18n._(msg`Success`) : i18n._(msg`Failed`)) },
        ...Object.fromEntries(['new', 'sync', 'unsync', 'released'].map((k) => [k, { render: (r: Record<string, unknown>) => String((r.summary as Record<string, unknown> | undefined)?.[k] ?? 0) }])),
      },
    },
  }), [url, object.id, i18n])
  return <ListTable config={config} />
}

function Instances({ object, url }: DetailContext) {
  const { i18n } = useLingui()
  const config = useMemo<ListConfig>(() => ({
    resource: { ...manifestItem('sync-instance-tasks').resource, url: `${url}${encodeURIComponent(String(object.id))}/instances/` },
    label: msg`Instances`, tableName: 'SyncInstanceTaskInstances', stateIn: 'local', defaultOrder: null,
    commands: { overrides: NONE },
    columns: {
      min: ['instance_id'], exclude: ['actions'],
      fields: [
        { name: 'instance_id', label: msg`Instance ID` }, { name: 'asset_ip', label: msg`IP` }, { name: 'region', label: msg`Region` },
        { name: 'asset', label: msg`Asset` }, { name: 'status', label: msg`Status` }, { name: 'date_sync', label: msg`Date sync`, type: 'datetime' },
      ],
      overrides: {
        status: { render: (r) => i18n._(STATUS[Number(r.status)] ?? msg`Unsync`) },
        asset: { render: (r) => String((r.asset as { name?: string } | null)?.name ?? '') },
      },
    },
  }), [url, object.id, i18n])
  return <ListTable config={config} />
}

export function SyncTaskDetailPage() {
  const config: DetailConfig = {
    resource: manifestItem('sync-instance-tasks').resource,
    tabs: [
      { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
      { id: 'History', label: msg`History`, render: (ctx) => <History {...ctx} /> },
      { id: 'Instances', label: msg`Instances`, render: (ctx) => <Instances {...ctx} /> },
    ],
    commands: { extra: [runCommand, releaseCommand] },
  }
  return <GenericDetailPage config={config} />
}

export function CloudAccountDetailPage() {
  const config: DetailConfig = {
    resource: manifestItem('cloud-accounts').resource,
    tabs: [{ id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> }],
    commands: { extra: [testCommand] },
  }
  return <GenericDetailPage config={config} />
}

const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined)
let taskForm: FormPageConfig | undefined
const syncTaskFormConfig = (): FormPageConfig => (taskForm ??= {
  resource: manifestItem('sync-instance-tasks').resource,
  title: { create: msg`Create sync instance task`, update: msg`Update sync instance task` },
  initial: (s) => ({
    ...(text(s.account) ? { account: text(s.account)! } : {}),
    ...(text(s.node) ? { node: text(s.node)! } : {}),
    ...(text(s.regions) ? { regions: [text(s.regions)!] } : {}),
  }),
})

export function SyncTaskFormPage() {
  return <GenericFormPage config={syncTaskFormConfig()} />
}

const useStyles = makeStyles({ attrs: { display: 'grid', gap: tokens.spacingVerticalS, maxWidth: '480px' } })
function parseAttrs(value: unknown): Record<string, unknown> {
  let v = value
  if (typeof v === 'string') {
    try { v = v.trim() ? JSON.parse(v) : {} } catch { v = {} }
  }
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
}
const words = (text: string) => text.split(/[\s,]+/).map((x) => x.trim()).filter(Boolean)

/**
 * The scan provider's settings as fields of their own instead of JSON: the ranges (one per line), the ports, and
 * an optional login for `uname` (the password is write-only: blank keeps the stored one).
 */
function ScanAttrsWidget({ value, onChange, onBlur, disabled }: WidgetProps) {
  const { t } = useLingui()
  const styles = useStyles()
  // the form keeps a JSON field as its text (formModel): read it, write it back as text
  const attrs = parseAttrs(value)
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String) : [])
  const set = (key: string, v: unknown) => onChange(JSON.stringify({ ...attrs, [key]: v }, null, 2))
  return (
    <div className={styles.attrs} onBlur={onBlur}>
      <Field label={t`IP network segment group`} hint={t`One per line: an address, a range such as 127.0.0.1-127.0.0.20, or a CIDR such as 127.0.0.0/24`}>
        <Textarea value={list(attrs.ip_group).join('\n')} disabled={disabled} resize="vertical"
          onChange={(_, d) => set('ip_group', d.value.split('\n').map((x) => x.trim()).filter((x, i, all) => x || i === all.length - 1))} />
      </Field>
      <Field label={t`Ports`} hint={t`Separated by commas; an address answering on one of them is an instance`}>
        <Input value={list(attrs.port).join(', ')} disabled={disabled}
          onChange={(_, d) => set('port', words(d.value).map((p) => (/^\d+$/.test(p) ? Number(p) : p)))} />
      </Field>
      <Field label={t`Username`} hint={t`Optional: logs in over SSH to read the system name (uname)`}>
        <Input value={String(attrs.username ?? '')} disabled={disabled} autoComplete="off" onChange={(_, d) => set('username', d.value)} />
      </Field>
      <Field label={t`Password`}>
        <Input type="password" value={String(attrs.password ?? '')} disabled={disabled} autoComplete="new-password" onChange={(_, d) => set('password', d.value)} />
      </Field>
    </div>
  )
}

let accountForm: FormPageConfig | undefined
const accountFormConfig = (): FormPageConfig => (accountForm ??= {
  resource: manifestItem('cloud-accounts').resource,
  title: { create: msg`Create cloud account`, update: msg`Update cloud account` },
  overrides: { attrs: { render: (props) => <ScanAttrsWidget {...props} /> } },
  // blank lines of the ranges are not sent
  transform: (payload) => {
    const attrs = payload.attrs as Record<string, unknown> | undefined
    if (!attrs || !Array.isArray(attrs.ip_group)) return payload
    return { ...payload, attrs: { ...attrs, ip_group: (attrs.ip_group as string[]).filter(Boolean) } }
  },
})

export function CloudAccountFormPage() {
  return <GenericFormPage config={accountFormConfig()} />
}
