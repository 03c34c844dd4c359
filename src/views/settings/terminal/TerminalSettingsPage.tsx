/**
 * Settings → Terminal (TerminalSetting), as the reference console's tab page: the terminal settings form, then
 * the terminals (status and load), replay storages and command storages (with "Test"), endpoints and endpoint
 * rules — each a generic list of its manifest entry (src/views/settings/terminal/entries.ts). The tab is in the
 * URL (`?tab=`), so a form's save comes back to its list. The storage form takes `?type=` as its starting type.
 */
import { Tab, TabList, makeStyles, tokens } from '@fluentui/react-components'
import { PlugConnectedRegular } from '@fluentui/react-icons'
import type { MessageDescriptor } from '@lingui/core'
import { msg, t } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import { useMemo } from 'react'
import { testStorage } from '../../../api/terminal.ts'
import { useAccess } from '../../../ui/common/access.tsx'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { Page } from '../../../ui/common/Page.tsx'
import { hasPerm } from '../../../ui/common/perms.ts'
import { ObjectForm } from '../../../ui/form/ObjectFormPage.tsx'
import { GenericFormPage, type FormPageConfig } from '../../../ui/form/FormPage.tsx'
import { ListTable } from '../../../ui/list/ListTable.tsx'
import type { ListCommand, ListConfig } from '../../../ui/list/types.ts'
import { manifestItem, type ResourceKey } from '../../entries.ts'
import { terminalSettingsConfig } from '../MoreSettingsPages.tsx'

const useStyles = makeStyles({ tabs: { marginBottom: tokens.spacingVerticalM } })

/** "Test": the server checks the storage for real (writes the replay directory, asks the endpoint). */
const testCommand: ListCommand = {
  id: 'test-connective', scope: 'row', label: msg`Test`, icon: PlugConnectedRegular, order: 30, perms: ['@view'],
  run: async ({ row }, h) => {
    if (!row) return
    try {
      const r = await testStorage(h.resource.url, row.id)
      notify(r.is_valid ? 'success' : 'error', r.is_valid ? t`Test passed` : t`Test failed`, r.msg)
    } catch (e) {
      notify('error', t`Test failed`, describeError(e))
    }
  },
}

interface ListTab { key: string; entry: ResourceKey; title: MessageDescriptor; config: () => ListConfig }

const listOf = (entry: ResourceKey, label: MessageDescriptor, more: Partial<ListConfig> = {}): ListConfig => ({
  resource: manifestItem(entry).resource, label, tableName: `Terminal-${entry}`, tools: { import: false, export: true }, ...more,
})

const LIST_TABS: readonly ListTab[] = [
  {
    key: 'terminals', entry: 'terminals', title: msg`Terminals`,
    config: () => listOf('terminals', msg`Terminals`, {
      columns: {
        min: ['name', 'actions'],
        defaults: ['name', 'type', 'remote_addr', 'session_online', 'is_active', 'is_alive', 'load', 'date_created', 'actions'],
        exclude: ['stat', 'command_storage', 'replay_storage'],
      },
      commands: { overrides: { clone: null } },
    }),
  },
  {
    key: 'replay-storage', entry: 'replay-storages', title: msg`Replay storage`,
    config: () => listOf('replay-storages', msg`Replay storage`, { columns: { exclude: ['meta'] }, commands: { extra: [testCommand] } }),
  },
  {
    key: 'command-storage', entry: 'command-storages', title: msg`Command storage`,
    config: () => listOf('command-storages', msg`Command storage`, { columns: { exclude: ['meta'] }, commands: { extra: [testCommand] } }),
  },
  {
    key: 'endpoint', entry: 'endpoints', title: msg`Endpoints`,
    config: () => listOf('endpoints', msg`Endpoints`, {
      columns: { defaults: ['name', 'host', 'https_port', 'http_port', 'ssh_port', 'rdp_port', 'mysql_port', 'postgresql_port', 'actions'] },
    }),
  },
  {
    key: 'endpoint-rule', entry: 'endpoint-rules', title: msg`Endpoint rules`,
    config: () => listOf('endpoint-rules', msg`Endpoint rules`, { columns: { defaults: ['name', 'ip_group', 'priority', 'endpoint', 'comment', 'actions'] } }),
  },
]

export function TerminalSettingsPage() {
  const { i18n } = useLingui()
  const styles = useStyles()
  const navigate = useNavigate()
  const access = useAccess()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  // Tabs the user may see (the form needs settings.change_terminal, as the route does).
  const visible = LIST_TABS.filter((x) => hasPerm(access.perms, manifestItem(x.entry).perms.view))
  const current = visible.find((x) => x.key === search.tab)
  const tabs = (
    <TabList className={styles.tabs} selectedValue={current?.key ?? 'basic'} aria-label={i18n._(msg`Terminal settings`)}
      onTabSelect={(_, d) => void navigate({ to: '.', search: d.value === 'basic' ? {} : { tab: String(d.value) } } as never)}>
      <Tab value="basic">{i18n._(msg`Basic settings`)}</Tab>
      {visible.map((x) => <Tab key={x.key} value={x.key}>{i18n._(x.title)}</Tab>)}
    </TabList>
  )
  return (
    <Page title={i18n._(current ? current.title : terminalSettingsConfig.title)} back={false} boxed={!current}>
      {tabs}
      {current ? <TerminalTabList key={current.key} tab={current.key} /> : <ObjectForm config={terminalSettingsConfig} />}
    </Page>
  )
}

/** One tab's list (its configuration made once per tab). */
function TerminalTabList({ tab }: { tab: string }) {
  const config = useMemo(() => LIST_TABS.find((x) => x.key === tab)!.config(), [tab])
  return <ListTable config={config} />
}

/** Replay and command storage forms: `?type=` (s3, es, …) is the starting type, as the reference's create links. */
function storageFormConfig(entry: 'replay-storages' | 'command-storages'): FormPageConfig {
  const item = manifestItem(entry)
  return {
    resource: item.resource,
    title: { create: item.entry.titles.create!, update: item.entry.titles.update! },
    help: msg`Each type has its own settings, shown once the type is chosen. Secrets are never shown: leave one empty to keep the stored one.`,
    initial: (s) => (typeof s.type === 'string' && s.type ? { type: s.type } : {}),
    layout: [[msg`Basic`, ['name', 'type', 'is_default', 'comment']], [msg`Meta`, ['meta']]],
  }
}

export function ReplayStorageFormPage() {
  const config = useMemo(() => storageFormConfig('replay-storages'), [])
  return <GenericFormPage config={config} />
}

export function CommandStorageFormPage() {
  const config = useMemo(() => storageFormConfig('command-storages'), [])
  return <GenericFormPage config={config} />
}
