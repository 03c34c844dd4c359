/**
 * My tickets and assigned tickets: the generic list over `/api/v1/tickets/tickets/` with the caller's fixed filter
 * (`applicant` or `assignees__id`, as lina), tabs by state, search and filters; the title opens the typed detail.
 */
import { Button, Tab, TabList, makeStyles, tokens } from '@fluentui/react-components'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { TICKETS_URL } from '../../api/tickets.ts'
import { useAccess } from '../../ui/common/access.tsx'
import { useGo } from '../../ui/common/navigation.tsx'
import { Page } from '../../ui/common/Page.tsx'
import { defineResource } from '../../ui/common/resource.ts'
import { StateBadge } from '../../ui/common/StateBadge.tsx'
import { ListTable } from '../../ui/list/ListTable.tsx'
import type { ListConfig } from '../../ui/list/types.ts'
import { CellValue } from '../../ui/table/CellValue.tsx'
import { detailPathOf } from './detailPaths.ts'

const useStyles = makeStyles({ tabs: { marginBottom: tokens.spacingVerticalM } })

const STATES = ['all', 'pending', 'approved', 'rejected', 'closed'] as const
type StateTab = (typeof STATES)[number]
const TAB_LABELS = { all: msg`All`, pending: msg`Pending`, approved: msg`Approved`, rejected: msg`Rejected`, closed: msg`Closed` }

export const ticketResource = (mode: 'mine' | 'assigned') => defineResource({
  url: TICKETS_URL,
  routes: { list: mode === 'mine' ? { name: 'MyTicketList', path: '/tickets/my-tickets' } : { name: 'AssignedTicketList', path: '/tickets/assigned-tickets' } },
  perms: { view: 'tickets.view_ticket', add: 'tickets.add_applyassetticket', change: 'tickets.view_ticket', delete: 'tickets.view_ticket' },
  typeLabel: msg`Ticket`,
  defaultOrder: '-date_created',
})

function listConfig(mode: 'mine' | 'assigned', userId: string, tab: StateTab): ListConfig {
  const fixed = mode === 'mine' ? `applicant=${userId}` : `assignees__id=${userId}`
  return {
    resource: ticketResource(mode),
    url: `${TICKETS_URL}?${fixed}${tab === 'all' ? '' : `&state=${tab}`}`,
    tableName: `${mode === 'mine' ? 'MyTicketList' : 'AssignedTicketList'}_${tab}`,
    label: mode === 'mine' ? msg`My tickets` : msg`Assigned tickets`,
    hiddenFilters: ['applicant', 'assignees__id', 'state'],
    defaultOrder: '-date_created',
    rowName: (row) => String(row.title ?? ''),
    columns: {
      min: ['title'],
      defaults: ['serial_num', 'title', 'type', 'applicant', 'org_name', 'state', 'date_created'],
      exclude: ['process_map', 'rel_snapshot', 'comment', 'approval_step', 'org_id', 'created_by', 'updated_by'],
      overrides: {
        title: { render: (row) => <CellValue kind="detailLink" value={String(row.title ?? '')} to={detailPathOf(String((row.type as { value?: string } | undefined)?.value ?? ''), String(row.id))} /> },
        state: { render: (row) => <StateBadge state={row.state as { value: string; label: string }} /> },
      },
    },
    commands: { overrides: { create: null, update: null, delete: null, clone: null, bulkDelete: null, bulkUpdate: null } },
    tools: { import: false, export: false },
    searchExclude: ['id', 'applicant', 'state'],
  }
}

function TicketList({ mode }: { mode: 'mine' | 'assigned' }) {
  const { i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const go = useGo()
  const navigate = useNavigate()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const tab: StateTab = STATES.includes(search.tab as StateTab) ? (search.tab as StateTab) : (mode === 'assigned' ? 'pending' : 'all')
  const config = useMemo(() => listConfig(mode, access.userId ?? '', tab), [mode, access.userId, tab])
  return (
    <Page
      title={i18n._(mode === 'mine' ? msg`My tickets` : msg`Assigned tickets`)}
      back={false}
      actions={mode === 'mine' ? <Button appearance="primary" onClick={() => go('/tickets/tickets/request-host-perm/create')}>{i18n._(msg`Request asset permission`)}</Button> : undefined}
    >
      <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => void navigate({ to: '.', search: { tab: d.value } } as never)}>
        {STATES.map((s) => <Tab key={s} value={s}>{i18n._(TAB_LABELS[s])}</Tab>)}
      </TabList>
      <ListTable key={tab} config={config} />
    </Page>
  )
}

export function MyTicketListPage() {
  return <TicketList mode="mine" />
}
export function AssignedTicketListPage() {
  return <TicketList mode="assigned" />
}
