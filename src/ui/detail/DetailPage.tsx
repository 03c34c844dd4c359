/**
 * The generic detail page (GenericDetailPage): title "<Type>: <name>", tabs remembering `activeTab` (query, then
 * cookie, then default), the object's actions from the same command registry as the list rows (update needs
 * change and a non-root org, delete needs delete), an Activity tab for holders of audits.view_activitylog,
 * and a clear message when the object does not exist.
 */
import { MessageBar, MessageBarBody, Spinner, Tab, TabList, makeStyles, tokens } from '@fluentui/react-components'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useParams, useSearch } from '@tanstack/react-router'
import Cookies from 'js-cookie'
import { useMemo, useState, type ReactNode } from 'react'
import { ApiError } from '../../api/client.ts'
import { fieldsOf, type FieldMeta } from '../../api/metadata.ts'
import { objectQuery } from '../../api/queries.ts'
import type { Row } from '../../api/resources.ts'
import { isRootOrg, useAccess, type Access } from '../common/access.tsx'
import { useConfirm } from '../common/ConfirmDialog.tsx'
import { describeError } from '../common/errors.ts'
import { useGo, useOpenInNewTab } from '../common/navigation.tsx'
import { Page } from '../common/Page.tsx'
import { hasPerms } from '../common/perms.ts'
import type { ResourceDef } from '../common/resource.ts'
import { useCached } from '../common/useCached.ts'
import { useMetadata } from '../common/useMetadata.ts'
import { CommandBar } from '../list/CommandBar.tsx'
import { commandsFor, mergeCommands, type CommandEnv } from '../list/commands.ts'
import { defaultListCommands, defaultRowName } from '../list/defaultCommands.tsx'
import type { CommandHelpers, ListCommand } from '../list/types.ts'
import { ActivityTab } from './ActivityTab.tsx'
import { ACTIVE_TAB, chooseTab, detailTitle } from './activeTab.ts'

const useStyles = makeStyles({
  tabs: { borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}` },
  panel: { paddingTop: tokens.spacingVerticalL, minWidth: 0 },
})

export const ACTIVITY_PERM = 'audits.view_activitylog'

export interface DetailContext {
  object: Row
  reload: () => void
  resource: ResourceDef
  url: string
  /** the list's GET metadata (labels, formatters) */
  fields: FieldMeta[]
  access: Access
}

export interface DetailTab {
  id: string
  label: MessageDescriptor
  perms?: readonly string[]
  visible?: (object: Row, access: Access) => boolean
  render: (ctx: DetailContext) => ReactNode
}

export interface DetailConfig {
  resource: ResourceDef
  url?: string
  tabs: readonly DetailTab[]
  /** actions of the object: the list's row commands (update, delete) plus these */
  commands?: { overrides?: Readonly<Record<string, Partial<ListCommand> | null>>; extra?: readonly ListCommand[] }
  activity?: boolean
  /** search params carried to the list after a delete (e.g. `user`) */
  keepSearch?: readonly string[]
  rowName?: (row: Row) => string
}

const ACTIVITY_TAB: DetailTab = { id: 'Activity', label: msg`Activity`, perms: [ACTIVITY_PERM], render: ({ object }) => <ActivityTab resourceId={object.id} /> }

export function GenericDetailPage({ config }: { config: DetailConfig }) {
  const { id } = useParams({ strict: false }) as { id?: string }
  return <DetailBody key={id} config={config} id={id ?? ''} />
}

function DetailBody({ config, id }: { config: DetailConfig; id: string }) {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const go = useGo()
  const openInNewTab = useOpenInNewTab()
  const navigate = useNavigate()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const [confirmDialog, confirm] = useConfirm()
  const { resource } = config
  const url = config.url ?? resource.url
  const rowName = config.rowName ?? defaultRowName
  const object = useCached(objectQuery(url, id, access.orgId))
  const meta = useMetadata(url)
  const fields = useMemo(() => fieldsOf(meta.data, 'GET'), [meta.data])
  const keptKey = (config.keepSearch ?? []).map((k) => `${k}=${String(search[k] ?? '')}`).join('&')
  const kept = useMemo(
    () => Object.fromEntries((config.keepSearch ?? []).filter((k) => search[k] !== undefined).map((k) => [k, String(search[k])])) as Record<string, string>,
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [keptKey],
  )

  const tabs = useMemo(() => [...config.tabs, ...(config.activity === false ? [] : [ACTIVITY_TAB])], [config.tabs, config.activity])
  const row = object.data
  const visibleTabs = row ? tabs.filter((tab) => hasPerms(access.perms, tab.perms) && (tab.visible ? tab.visible(row, access) : true)) : []
  const [picked, setPicked] = useState<string>()
  const active = chooseTab(visibleTabs.map((tab) => tab.id), picked ?? search[ACTIVE_TAB], Cookies.get(ACTIVE_TAB), visibleTabs[0]?.id)
  const selectTab = (tabId: string) => {
    setPicked(tabId)
    Cookies.set(ACTIVE_TAB, tabId, { expires: 1, path: '/', sameSite: 'lax' })
    if (search[ACTIVE_TAB] === undefined) return
    const next = { ...search }
    delete next[ACTIVE_TAB]
    void navigate({ to: '.', search: next, replace: true } as never)
  }

  const commands = useMemo(
    () => mergeCommands(defaultListCommands({ resource, linkSearch: kept }).filter((c) => c.scope === 'row' && c.id !== 'clone'), config.commands?.overrides, config.commands?.extra),
    [resource, config.commands, kept],
  )
  const env: CommandEnv = { access, perms: resource.perms, rootOrg: isRootOrg(access) }
  // A detail page gives commands the object's helpers only: no selection, bulk update or list tools.
  const helpers: CommandHelpers = {
    resource, url, go, openInNewTab, confirm, reload: object.reload, rowName,
    afterDelete: () => go(resource.routes.list.path, { ...resource.routes.list.search, ...kept }),
  }

  const typeLabel = i18n._(resource.typeLabel)
  const notFound = object.status === 'error' && object.error instanceof ApiError && object.error.status === 404
  const title = row ? detailTitle(typeLabel, rowName(row)) : typeLabel

  const actions = row ? commandsFor('row', commands, env, { row, selection: [] }) : []
  const actionBar = row && actions.length > 0
    ? <CommandBar commands={actions} env={env} target={{ row, selection: [] }} helpers={() => helpers} max={3} shownWhenMore={3} primaryId="update" />
    : undefined

  const ctx: DetailContext | undefined = row ? { object: row, reload: object.reload, resource, url, fields, access } : undefined
  const activeTab = visibleTabs.find((tab) => tab.id === active)
  return (
    <Page title={title} actions={actionBar}>
      {object.status === 'loading' && !row && <Spinner label={t`Loading…`} />}
      {object.status === 'error' && (
        <MessageBar intent="error">
          <MessageBarBody>{notFound ? t`The object was not found or has been deleted` : describeError(object.error)}</MessageBarBody>
        </MessageBar>
      )}
      {ctx && activeTab && (
        <div>
          {visibleTabs.length > 1 && (
            <TabList className={styles.tabs} selectedValue={active} onTabSelect={(_, d) => selectTab(String(d.value))}>
              {visibleTabs.map((tab) => <Tab key={tab.id} value={tab.id} id={`tab-${tab.id}`} aria-controls="detail-panel">{i18n._(tab.label)}</Tab>)}
            </TabList>
          )}
          <div className={styles.panel} id="detail-panel" role="tabpanel" aria-labelledby={visibleTabs.length > 1 ? `tab-${activeTab.id}` : undefined}>
            {activeTab.render(ctx)}
          </div>
        </div>
      )}
      {confirmDialog}
    </Page>
  )
}
