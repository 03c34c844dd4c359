/**
 * Sessions (audit): online and offline tabs over the generic list (date range, filters, search), terminate on
 * online sessions (a task the component fetches), and the session detail with its commands and replay.
 */
import { Tab, TabList, makeStyles, tokens } from '@fluentui/react-components'
import { DismissCircleRegular, PlayRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { Suspense, useMemo, useState } from 'react'
import type { Row } from '../../../api/resources.ts'
import { COMMANDS_URL, terminateSessions } from '../../../api/terminal.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { routePath } from '../../../ui/common/resource.ts'
import { CellValue } from '../../../ui/table/CellValue.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { GenericDetailPage, type DetailConfig, type DetailContext } from '../../../ui/detail/DetailPage.tsx'
import { detailItems, InfoCard } from '../../../ui/detail/InfoCard.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { manifestItem } from '../../manifest.ts'
import { lazyRetry } from '../../../ui/common/retryImport.ts'

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalM },
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(360px, 1fr))', gap: tokens.spacingHorizontalL, alignItems: 'start' },
})

const sessionResource = () => manifestItem('sessions').resource
const TERMINATE_PERM = 'terminal.terminate_session'

const rowName = (row: Row) => `${String(row.user ?? '')} → ${String(row.asset ?? '')}`

/** Terminate: asks the session's component (through its task list) to end it. */
export const terminateCommand: ListCommand = {
  id: 'terminate', scope: 'row', label: msg`Terminate`, icon: DismissCircleRegular, order: 12, perms: [TERMINATE_PERM], danger: true,
  visible: (_env, { row }) => !!row && row.can_terminate === true,
  run: ({ row }, h) => {
    if (!row) return
    const name = h.rowName(row)
    h.confirm({
      title: t`Terminate session`,
      danger: true,
      confirmLabel: t`Terminate`,
      body: <Trans>Terminate the session “{name}”? Its terminal ends it at its next heartbeat.</Trans>,
      onConfirm: async () => {
        const ok = await terminateSessions([row.id])
        if (ok.length) notify('success', t`The terminal was asked to end the session`)
        else notify('warning', t`The session has already ended`)
        h.reload()
      },
    })
  },
}

const replayCommand: ListCommand = {
  id: 'replay', scope: 'row', label: msg`Replay`, icon: PlayRegular, order: 11, perms: ['terminal.view_sessionreplay'],
  visible: (_env, { row }) => !!row && row.can_replay === true,
  run: ({ row }, h) => {
    if (!row) return
    const detail = h.resource.routes.detail
    if (detail) h.go(detail.path.replace(':id', encodeURIComponent(String(row.id))), { tab: 'Replay' })
  },
}

type SessionTab = 'online' | 'offline'

function sessionListConfig(tab: SessionTab): ListConfig {
  return {
    resource: sessionResource(),
    url: `${sessionResource().url}?is_finished=${tab === 'online' ? 0 : 1}`,
    tableName: tab === 'online' ? 'OnlineSessionList' : 'OfflineSessionList',
    label: tab === 'online' ? msg`Online sessions` : msg`Offline sessions`,
    hiddenFilters: ['is_finished'],
    dateRange: true,
    defaultOrder: '-date_start',
    rowName,
    columns: {
      min: ['user', 'asset', 'actions'],
      defaults: ['user', 'asset', 'account', 'protocol', 'login_from', 'remote_addr', 'command_amount', 'date_start', ...(tab === 'offline' ? ['date_end'] : []), 'actions'],
      exclude: ['user_id', 'asset_id', 'account_id', 'can_replay', 'can_join', 'can_terminate', 'has_command', 'is_finished'],
      // A session has no name: its user opens the detail.
      overrides: { user: { render: (row) => <CellValue kind="detailLink" value={String(row.user ?? '')} to={routePath(sessionResource().routes.detail!, { id: row.id })} /> } },
    },
    commands: {
      overrides: { update: null, delete: null, clone: null },
      extra: tab === 'online' ? [terminateCommand] : [replayCommand],
    },
    tools: { import: false, export: true },
    searchExclude: ['id', 'is_finished'],
  }
}

export function SessionListPage() {
  const { i18n } = useLingui()
  const styles = useStyles()
  const navigate = useNavigate()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const [tab, setTab] = useState<SessionTab>(search.tab === 'online' ? 'online' : 'offline')
  const config = useMemo(() => sessionListConfig(tab), [tab])
  return (
    <Page title={i18n._(msg`Sessions`)} back={false}>
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => {
        const next = d.value === 'online' ? 'online' : 'offline'
        setTab(next)
        void navigate({ to: '.', search: { tab: next } } as never)
      }}>
        <Tab value="online">{i18n._(msg`Online sessions`)}</Tab>
        <Tab value="offline">{i18n._(msg`Offline sessions`)}</Tab>
      </TabList>
      <ListTable key={tab} config={config} />
    </Page>
  )
}

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

export const sessionDetailConfig = (): DetailConfig => ({
  resource: sessionResource(),
  rowName,
  tabs: [
    { id: 'Info', label: msg`Basic information`, render: (ctx) => <Info {...ctx} /> },
    { id: 'Commands', label: msg`Commands`, perms: ['terminal.view_command'], render: (ctx) => <Commands {...ctx} /> },
    { id: 'Replay', label: msg`Replay`, perms: ['terminal.view_sessionreplay'], visible: (row) => row.has_replay === true, render: (ctx) => <Replay {...ctx} /> },
  ],
  commands: { overrides: { update: null, delete: null, clone: null }, extra: [terminateCommand] },
})

export function SessionDetailPage() {
  const config = useMemo(() => sessionDetailConfig(), [])
  return <GenericDetailPage config={config} />
}
