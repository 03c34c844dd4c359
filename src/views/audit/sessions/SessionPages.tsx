/** The session detail (audit) with its commands, its live view (Monitor, while online) and replay; the list is SessionListPage.tsx. */
import { makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { Suspense, useEffect, useMemo } from 'react'
import { COMMANDS_URL } from '../../../api/terminal.ts'
import type { ListConfig } from '../../../ui/list/types.ts'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import { manifestItem } from '../../entries.ts'
import { lazyRetry } from '../../../ui/common/retryImport.ts'
import { MONITOR_PERM, monitorCommand, rowName, sessionResource, terminateCommand } from './sessionCommands.tsx'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(360px, 100%), 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
})

function Info({ object, fields }: DetailContext) {
  const { t: tt } = useLingui()
  const styles = useStyles()
  return (
    <div className={styles.grid}>
      <InfoCard title={tt`Basic information`} items={detailItems(object, fields, ['user', 'asset', 'account', 'protocol', 'type', 'login_from', 'remote_addr', 'terminal', 'is_success', 'is_finished', 'command_amount', 'comment'])} />
      <InfoCard title={tt`Dates`} items={detailItems(object, fields, ['date_start', 'date_end'])} />
    </div>
  )
}

function commandListConfig(sessionId: string): ListConfig {
  return {
    resource: manifestItem('commands').resource,
    url: `${COMMANDS_URL}?session=${encodeURIComponent(sessionId)}`,
    tableName: 'SessionCommandList',
    label: msg`Commands`,
    hiddenFilters: ['session'],
    stateIn: 'local',
    defaultOrder: 'timestamp',
    dateRange: false,
    columns: { defaults: ['input', 'output', 'risk_level', 'timestamp_display'], exclude: ['session', 'org_id', 'org_name', 'timestamp', 'user', 'asset', 'account'] },
    commands: { overrides: { update: null, delete: null, clone: null } },
    tools: { import: false, export: false },
  }
}

function Commands({ object }: DetailContext) {
  const config = useMemo(() => commandListConfig(String(object.id)), [object.id])
  return <ListTable config={config} />
}

const ReplayPlayer = lazyRetry(() => import('./ReplayPlayer.tsx').then((m) => ({ default: m.ReplayPlayer })))

function Replay({ object }: DetailContext) {
  const { t: tt } = useLingui()
  return (
    <Suspense fallback={<div role="status">{tt`Loading the player…`}</div>}>
      <ReplayPlayer sessionId={String(object.id)} />
    </Suspense>
  )
}

const MonitorView = lazyRetry(() => import('./MonitorView.tsx').then((m) => ({ default: m.MonitorView })))

/**
 * Sessions whose live view is open on this page: their Monitor tab stays while it is open, so the view can say how
 * the session ended (Terminate reloads the row, and an ended session is no longer `can_join`).
 */
const watching = new Set<string>()

function Monitor({ object }: DetailContext) {
  const { t: tt } = useLingui()
  const id = String(object.id)
  useEffect(() => {
    watching.add(id)
    return () => void watching.delete(id)
  }, [id])
  return (
    <Suspense fallback={<div role="status">{tt`Loading the live view…`}</div>}>
      <MonitorView sessionId={id} />
    </Suspense>
  )
}

export const sessionDetailConfig = (): DetailConfig => ({
  resource: sessionResource(),
  rowName,
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
    { id: 'Commands', label: msg`Commands`, perms: ['terminal.view_command'], render: (ctx) => <Commands {...ctx} /> },
    // While a built-in terminal process holds the session: its screen, live (a lazy chunk; xterm is the shared `xterm` chunk).
    { id: 'Monitor', label: msg`Monitor`, perms: [MONITOR_PERM], visible: (row) => row.can_join === true || watching.has(String(row.id)), render: (ctx) => <Monitor {...ctx} /> },
    { id: 'Replay', label: msg`Replay`, perms: ['terminal.view_sessionreplay'], visible: (row) => row.has_replay === true, render: (ctx) => <Replay {...ctx} /> },
  ],
  commands: { overrides: { update: null, delete: null, clone: null }, extra: [monitorCommand, terminateCommand] },
})

export function SessionDetailPage() {
  const config = useMemo(() => sessionDetailConfig(), [])
  return <GenericDetailPage config={config} />
}
