import { Button, mergeClasses } from '@fluentui/react-components'
import { Tooltip } from '../ui/common/overlays.tsx'
import { Suspense } from 'react'
import { CounterBadge } from '../ui/common/lazyParts.ts'
import { SettingsRegular, TicketDiagonalRegular, WindowConsoleRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useAppSelector } from '../app/AppProvider.tsx'
import type { AppSnapshot } from '../app/appMachine.ts'
import { pathOf, viewRoot } from '../router/catalog.ts'
import { hasPermission } from '../router/permissions.ts'
import { useHeaderStyles } from './headerStyles.ts'
import { BADGE_MAX } from './SiteMessages.tsx'
import { useHasValidLicense, usePerms, useSettings } from './useShell.ts'

export const WEB_TERMINAL_URL = '/luna/'
const selectTickets = (s: AppSnapshot) => s.context.ticketsCount

/** Which of the header's shortcuts the user has, and the tickets waiting (the icons and the condensed menu share it). */
export function useHeaderShortcuts() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const perms = usePerms()
  const settings = useSettings()
  const licensed = useHasValidLicense()
  const tickets = useAppSelector(selectTickets)
  return {
    terminal: hasPermission(perms, ['rbac.view_webterminal']),
    tickets: hasPermission(perms, ['tickets.view_ticket']) && settings.TICKETS_ENABLED !== false && licensed,
    ticketsCount: tickets,
    ticketsLabel: tickets > 0 ? t`Tickets, ${tickets} waiting for you` : t`Tickets`,
    settings: hasPermission(perms, ['settings.view_setting']),
    openTickets: () => void navigate({ to: pathOf('AssignedTicketList') as never }),
    openSettings: () => void navigate({ to: (viewRoot('settings').redirect ?? '/settings') as never }),
  }
}

/** Web terminal, tickets (with the assigned-open badge) and system settings icons (spec 000 §2.3, §6). */
export function HeaderActions() {
  const { t } = useLingui()
  const styles = useHeaderStyles()
  const shortcuts = useHeaderShortcuts()
  const tickets = shortcuts.ticketsCount
  const showTickets = shortcuts.tickets
  const ticketsLabel = shortcuts.ticketsLabel
  return (
    <>
      {shortcuts.terminal && (
        <Tooltip content={t`Web terminal`} relationship="label">
          <Button as="a" href={WEB_TERMINAL_URL} target="_blank" rel="noopener noreferrer" appearance="transparent" className={styles.button} icon={<WindowConsoleRegular />} />
        </Tooltip>
      )}
      {showTickets && (
        <Tooltip content={t`Tickets`} relationship="description">
          <Button
            appearance="transparent"
            className={mergeClasses(styles.button, styles.iconButton)}
            icon={<TicketDiagonalRegular />}
            aria-label={ticketsLabel}
            onClick={shortcuts.openTickets}
          >
            {tickets > 0 && <Suspense fallback={null}><CounterBadge className={styles.badge} count={tickets} overflowCount={BADGE_MAX} size="small" color="danger" aria-hidden="true" /></Suspense>}
          </Button>
        </Tooltip>
      )}
      {shortcuts.settings && (
        <Tooltip content={t`System settings`} relationship="label">
          <Button
            appearance="transparent"
            className={styles.button}
            icon={<SettingsRegular />}
            onClick={shortcuts.openSettings}
          />
        </Tooltip>
      )}
    </>
  )
}
