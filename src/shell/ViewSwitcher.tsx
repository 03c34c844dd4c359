import { Button, makeStyles } from '@fluentui/react-components'
import { Menu, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '../ui/common/overlays.tsx'
import { ChevronDownRegular } from '@fluentui/react-icons'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useMemo, useState } from 'react'
import { allowedViews } from '../../machines/index.ts'
import type { ViewName } from '../router/types.ts'
import { viewRoot } from '../router/catalog.ts'
import { useCurrentView, useGuardFacts } from './useShell.ts'
import { useHeaderStyles } from './headerStyles.ts'
import { deferred } from '../ui/common/deferred.tsx'

export const VIEW_SWITCHER_TIP_KEY = 'viewSwitcherTip'
const SWITCHABLE: readonly ViewName[] = ['console', 'audit', 'workbench', 'tickets', 'settings']
export const VIEW_TITLES: Record<ViewName, MessageDescriptor> = {
  console: msg`Console`,
  audit: msg`Audit`,
  workbench: msg`Workbench`,
  tickets: msg`Tickets`,
  settings: msg`System settings`,
  profile: msg`Profile`,
}

const useStyles = makeStyles({
  // one line, cut on a narrow screen (a long translation must not wrap the header into two rows)
  name: {
    whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis', maxWidth: '200px',
    '@media (max-width: 767.98px)': { maxWidth: '88px' },
  },
})

const ViewSwitcherTip = deferred(() => import('./ViewSwitcherTip.tsx').then((m) => m.ViewSwitcherTip))

/** Console / audit / workbench / tickets / settings, as allowed (spec 000 §2.2, §2.3). */
export function ViewSwitcher() {
  const { t, i18n } = useLingui()
  const buttonClass = useHeaderStyles().button
  const styles = useStyles()
  const view = useCurrentView()
  const facts = useGuardFacts()
  const navigate = useNavigate()
  const views = useMemo(
    () => allowedViews(facts.profile, { hasValidLicense: facts.hasValidLicense }).filter((v) => SWITCHABLE.includes(v)),
    [facts],
  )
  const [tipOpen, setTipOpen] = useState(() => localStorage.getItem(VIEW_SWITCHER_TIP_KEY) !== '1')
  const dismissTip = () => {
    localStorage.setItem(VIEW_SWITCHER_TIP_KEY, '1')
    setTipOpen(false)
  }
  const [anchor, setAnchorState] = useState<HTMLElement | null>(null)
  const setAnchor = (el: HTMLElement | null) => setAnchorState(el)
  const showTip = tipOpen && views.length > 1 && anchor !== null
  const current = view ? i18n._(VIEW_TITLES[view]) : ''
  const choose = (next: ViewName) => {
    const root = viewRoot(next)
    void navigate({ to: (root.redirect ?? root.path) as never })
  }

  return (
    <>
      <Menu checkedValues={{ view: view ? [view] : [] }} onCheckedValueChange={(_, d) => choose(d.checkedItems[0] as ViewName)}>
        <MenuTrigger disableButtonEnhancement>
          <Button
            ref={setAnchor}
            appearance="transparent"
            className={buttonClass}
            icon={<ChevronDownRegular />}
            iconPosition="after"
            aria-label={t`Switch view, current: ${current}`}
            aria-describedby={showTip ? 'view-switcher-tip' : undefined}
          >
            <span className={styles.name}>{current}</span>
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {views.map((v) => (
              <MenuItemRadio key={v} name="view" value={v}>{i18n._(VIEW_TITLES[v])}</MenuItemRadio>
            ))}
          </MenuList>
        </MenuPopover>
      </Menu>
      {/* The tip is anchored to the switcher without wrapping it, so no control is nested in another; its code loads
          only for a user who has not dismissed it yet. */}
      <ViewSwitcherTip when={showTip} open={showTip} anchor={anchor} onDismiss={dismissTip} />
    </>
  )
}
