/**
 * Sessions (audit): online and offline tabs over the generic list (date range, filters, search), monitor and
 * terminate on online sessions, replay on offline ones. Its own module: a first visit loads no
 * detail code (SessionPages.tsx).
 */
import { Tab, TabList, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { Page } from '../../../ui/common/Page.tsx'
import { routePath } from '../../../ui/common/resource.ts'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../../ui/list/types.ts'
import { CellValue } from '../../../ui/table/CellValue.tsx'
import { monitorCommand, replayCommand, rowName, sessionResource, terminateCommand } from './sessionCommands.tsx'

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalM },
})

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
      extra: tab === 'online' ? [monitorCommand, terminateCommand] : [replayCommand],
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
