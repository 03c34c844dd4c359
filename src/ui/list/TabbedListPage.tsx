/**
 * A page of several lists, one tab each (roles by scope, gathering tasks and gathered accounts): the tabs the
 * user may view, the active one from the click, the URL or the remembered cookie (like every tab), and a fresh
 * list when the tab changes — its search, filters and page do not carry over.
 */
import { makeStyles, tokens } from '@fluentui/react-components'
import type * as Fluent from '@fluentui/react-components'
import type { MessageDescriptor } from '@lingui/core'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useSearch } from '@tanstack/react-router'
import Cookies from 'js-cookie'
import { Suspense, useState } from 'react'
import { useAccess } from '../common/access.tsx'
import { Page } from '../common/Page.tsx'
import { hasPerm } from '../common/perms.ts'
import { ACTIVE_TAB, chooseTab } from '../detail/activeTab.ts'
import { ListTable } from './ListTable.tsx'
import type { ListConfig } from './types.ts'
import { lazyRetry } from '../common/retryImport.ts'

// Fluent's tabs load with the first tabbed list (not in the chunk every list shares).
const tabsModule = () => import('./tabs.lazy.tsx')
const TabList = lazyRetry(() => tabsModule().then((m) => ({ default: m.TabList }))) as unknown as typeof Fluent.TabList
const Tab = lazyRetry(() => tabsModule().then((m) => ({ default: m.Tab }))) as unknown as typeof Fluent.Tab

export interface ListTab {
  key: string
  label: MessageDescriptor
  /** the permission that shows the tab */
  perm: string
  config: () => ListConfig
}

/** One list config per tab for the page's life: a new config object would reload the list. */
const configs = new WeakMap<ListTab, ListConfig>()
function configOf(tab: ListTab): ListConfig {
  let config = configs.get(tab)
  if (!config) {
    // (`?tab=`, which names the tab, is a reserved key of the list state: never a filter of the list)
    configs.set(tab, (config = tab.config()))
  }
  return config
}

const useStyles = makeStyles({
  tabs: { marginBottom: tokens.spacingVerticalM },
  // the tab list's height while its code loads (medium tabs), so the table does not jump
  waiting: { marginBottom: tokens.spacingVerticalM, minHeight: '44px' },
})

/** `tabs` is a module-level constant: each tab's list config is made once. */
/**
 * `tabParam`: a search param that names the tab too and wins over the remembered one (roles: `?scope=`, which the
 * forms and details carry back to the list, so a new organization role lands on the organization tab).
 */
export function TabbedListPage({ title, tabs, fallback, tabParam }: { title: string; tabs: readonly ListTab[]; fallback: string; tabParam?: string }) {
  const { i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const navigate = useNavigate()
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const shown = tabs.filter((tab) => hasPerm(access.perms, tab.perm))
  const keys = shown.map((tab) => tab.key)
  const [picked, setPicked] = useState<string>()
  const named = tabParam !== undefined && keys.includes(String(search[tabParam])) ? search[tabParam] : search[ACTIVE_TAB] ?? search.tab
  const active = chooseTab(keys, picked ?? named, Cookies.get(ACTIVE_TAB), fallback)
  const current = shown.find((tab) => tab.key === active)
  const config = current && configOf(current)
  return (
    <Page title={title} back={false}>
      {shown.length > 1 && (
        <Suspense fallback={<div className={styles.waiting} />}>
        <TabList className={styles.tabs} selectedValue={active} onTabSelect={(_, d) => {
          const tab = String(d.value)
          setPicked(tab)
          Cookies.set(ACTIVE_TAB, tab, { expires: 1, path: '/', sameSite: 'lax' })
          void navigate({ to: '.', search: {} } as never)
        }}>
          {shown.map((tab) => <Tab key={tab.key} value={tab.key}>{i18n._(tab.label)}</Tab>)}
        </TabList>
        </Suspense>
      )}
      {config && <ListTable key={active} config={config} />}
    </Page>
  )
}
