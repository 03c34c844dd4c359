/**
 * Settings → Tasks: the task kinds with their state, schedule and next run (enable switch), "Run now" opening
 * the live log, and a detail page with the schedule editor and the past executions, each opening its log.
 */
import { Button, Switch, makeStyles, tokens } from '@fluentui/react-components'
import { ArrowRepeatAllRegular, CalendarEditRegular, DocumentTextRegular, PlayRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { patchResource, type Row } from '../../../api/resources.ts'
import { runAgain, runTask, TASKS_URL, type TaskState } from '../../../api/tasks.ts'
import { useAccess } from '../../../ui/common/access.tsx'
import { describeError } from '../../../ui/common/errors.ts'
import { RouteLink } from '../../../ui/common/navigation.tsx'
import { notify } from '../../../ui/common/notify.tsx'
import { routePath } from '../../../ui/common/resource.ts'
import { Page } from '../../../ui/common/Page.tsx'
import { hasPerms } from '../../../ui/common/perms.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { FormDialog } from '../../../ui/form/FormDialog.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { TaskStateBadge } from '../../../ui/tasks/TaskLog.tsx'
import { RUN_TASK_PERM, taskExecutionResource, taskResource } from './resource.ts'
import { taskLogPath } from '../../../router/routes/common.ts'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(360px, 100%), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
  dot: { display: 'inline-block', width: '10px', height: '10px', borderRadius: '50%' },
})

const displayName = (row: Row) => {
  const meta = (row.meta ?? {}) as { display_name?: unknown; comment?: unknown }
  return typeof meta.display_name === 'string' && meta.display_name ? meta.display_name : String(row.name ?? row.id)
}

function HealthDot({ value }: { value: unknown }) {
  const styles = useStyles()
  const colors: Record<string, string> = { green: tokens.colorPaletteGreenBackground3, yellow: tokens.colorPaletteYellowBackground3, red: tokens.colorPaletteRedBackground3 }
  const labels: Record<string, string> = { green: t`No failure in the last five runs`, yellow: t`A failure in the last five runs`, red: t`The last run failed` }
  const key = typeof value === 'string' ? value : 'green'
  return <span role="img" aria-label={labels[key] ?? key} title={labels[key] ?? key} className={styles.dot} style={{ backgroundColor: colors[key] }} />
}

/** The enable switch of a periodic task (change permission), saved at once. */
function EnabledSwitch({ row, onSaved }: { row: Row; onSaved?: () => void }) {
  const { t } = useLingui()
  const access = useAccess()
  const [checked, setChecked] = useState(row.enabled === true)
  const [saving, setSaving] = useState(false)
  if (!row.exec_cycle) return <span>-</span>
  const toggle = async (next: boolean) => {
    setSaving(true)
    setChecked(next)
    try {
      await patchResource(TASKS_URL, row.id, { enabled: next })
      onSaved?.()
    } catch (e) {
      setChecked(!next)
      notify('error', t`Could not change the schedule`, describeError(e))
    } finally {
      setSaving(false)
    }
  }
  return (
    <Switch
      checked={checked}
      disabled={saving || !hasPerms(access.perms, ['ops.change_celerytask'])}
      aria-label={t`Enable the schedule of ${displayName(row)}`}
      onChange={(_, d) => void toggle(d.checked)}
    />
  )
}

const runNow: ListCommand = {
  id: 'run', scope: 'row', label: msg`Run now`, icon: PlayRegular, order: 5, perms: [RUN_TASK_PERM],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      const execution = await runTask(String(row.id))
      notify('success', t`Task started`)
      h.openInNewTab(taskLogPath(execution))
      h.reload()
    } catch (e) {
      notify('error', t`Could not start the task`, describeError(e))
    }
  },
}

export const taskListConfig: ListConfig = {
  resource: taskResource,
  label: msg`Tasks`,
  defaultOrder: null,
  columns: {
    min: ['name', 'actions'],
    defaults: ['name', 'summary', 'state', 'date_last_publish', 'exec_cycle', 'next_exec_time', 'enabled', 'actions'],
    // the schedule (cycle, next run, on/off) is what this list is read for; the last run's date gives way first
    priority: { exec_cycle: 2, next_exec_time: 2, enabled: 2, date_last_publish: 4 },
    exclude: ['id', 'meta', 'crontab', 'interval'],
    overrides: {
      name: {
        minWidth: 260,
        render: (row) => <RouteLink to={routePath(taskResource.routes.detail!, { id: String(row.id) })} title={String(row.name ?? '')}>{displayName(row)}</RouteLink>,
      },
      summary: {
        label: msg`Success/Total`,
        width: 110,
        sortable: false,
        render: (row) => {
          const s = (row.summary ?? {}) as { success?: number; total?: number }
          return `${s.success ?? 0}/${s.total ?? 0}`
        },
      },
      state: { width: 80, sortable: false, render: (row) => <HealthDot value={row.state} /> },
      exec_cycle: { width: 140, sortable: false, render: (row) => String(row.exec_cycle ?? '') || '-' },
      enabled: { width: 90, sortable: false, render: (row) => <EnabledSwitch key={`${row.id}:${String(row.enabled)}`} row={row} /> },
    },
  },
  commands: { extra: [runNow], overrides: { bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null } },
  tools: { import: false },
  searchExclude: ['id'],
  rowName: displayName,
}

export function TaskListPage() {
  const { t } = useLingui()
  return (
    <Page title={t`Tasks`} back={false}>
      <ListTable config={taskListConfig} />
    </Page>
  )
}

function TaskInfo({ object, fields, reload }: DetailContext) {
  const { t } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const [editing, setEditing] = useState(false)
  const meta = (object.meta ?? {}) as { comment?: string; queue?: string }
  const canChange = hasPerms(access.perms, ['ops.change_celerytask'])
  return (
    <div className={styles.grid}>
      <InfoCard
        title={t`Basic information`}
        items={[
          { key: 'display', label: t`Name`, value: displayName(object) },
          { key: 'path', label: t`Task path`, value: String(object.name ?? '') },
          { key: 'queue', label: t`Queue`, value: meta.queue ?? '-' },
          { key: 'comment', label: t`Description`, value: meta.comment ?? '-' },
          ...detailItems(object, fields, ['summary', 'date_last_publish']).map((i) => i.key === 'summary'
            ? { ...i, label: t`Success/Total`, value: `${(object.summary as { success?: number })?.success ?? 0}/${(object.summary as { total?: number })?.total ?? 0}` }
            : i),
        ]}
      />
      <InfoCard
        title={t`Schedule`}
        headerAction={canChange
          ? <Button icon={<CalendarEditRegular />} onClick={() => setEditing(true)}>{t`Edit schedule`}</Button>
          : undefined}
        items={[
          ...detailItems(object, fields, ['exec_cycle', 'next_exec_time']),
          { key: 'enabled', label: fields.find((f) => f.name === 'enabled')?.label ?? t`Enabled`, value: <EnabledSwitch key={`${object.id}:${String(object.enabled)}`} row={object} onSaved={reload} /> },
        ]}
      />
      {editing && (
        <FormDialog
          title={t`Edit schedule`}
          mode="edit"
          url={TASKS_URL}
          id={object.id}
          layout={['enabled', 'crontab', 'interval']}
          onClose={(saved) => {
            setEditing(false)
            if (saved) {
              notify('success', t`Schedule saved`)
              reload()
            }
          }}
        />
      )}
    </div>
  )
}

const openLog: ListCommand = {
  id: 'log', scope: 'row', label: msg`Log`, icon: DocumentTextRegular, order: 5,
  run: ({ row }, h) => {
    if (row) h.openInNewTab(taskLogPath(String(row.id)))
  },
}

const runAgainCommand: ListCommand = {
  id: 'runAgain', scope: 'row', label: msg`Run again`, icon: ArrowRepeatAllRegular, order: 6, perms: [RUN_TASK_PERM],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      const execution = await runAgain(String(row.id))
      notify('success', t`Task started`)
      h.openInNewTab(taskLogPath(execution))
      h.reload()
    } catch (e) {
      notify('error', t`Could not start the task`, describeError(e))
    }
  },
}

function TaskHistory({ object }: DetailContext) {
  const config: ListConfig = {
    resource: taskExecutionResource,
    url: `${taskExecutionResource.url}?task_id=${encodeURIComponent(String(object.id))}`,
    tableName: 'TaskExecutionList',
    label: msg`Task executions`,
    stateIn: 'local',
    defaultOrder: '-date_published',
    hiddenFilters: ['task_id'],
    columns: {
      min: ['state', 'actions'],
      defaults: ['state', 'date_published', 'date_finished', 'time_cost', 'creator', 'reason', 'actions'],
      exclude: ['name', 'task_name', 'args', 'kwargs', 'result', 'is_finished', 'is_success', 'timedelta'],
      overrides: {
        state: { width: 100, render: (row) => <TaskStateBadge state={(row.state as TaskState) ?? null} /> },
        creator: { minWidth: 180 },
        time_cost: { width: 100, render: (row) => (typeof row.time_cost === 'number' ? `${row.time_cost.toFixed(2)}s` : '-') },
      },
    },
    commands: { extra: [openLog, runAgainCommand], overrides: { create: null, bulkDelete: null, bulkUpdate: null, update: null, delete: null, clone: null } },
    tools: { import: false, export: false },
    searchExclude: ['id', 'task_id'],
    rowName: (row) => String(row.id),
  }
  return <ListTable config={config} />
}

const runFromDetail: ListCommand = { ...runNow, order: 1 }

export const taskDetailConfig: DetailConfig = {
  resource: taskResource,
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <TaskInfo {...ctx} /> },
    { id: 'History', label: msg`Executions`, render: (ctx) => <TaskHistory {...ctx} /> },
  ],
  commands: { extra: [runFromDetail], overrides: { update: null, delete: null } },
  activity: false,
  rowName: displayName,
}

export function TaskDetailPage() {
  return <GenericDetailPage config={taskDetailConfig} />
}
