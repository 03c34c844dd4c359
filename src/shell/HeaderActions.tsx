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

/** Web terminal, tickets (with the assigned-open badge) and system settings icons (spec 000 §2.3, §6). */
export function HeaderActions() {
  const { t } = useLingui()
  const styles = useHeaderStyles()
  const navigate = useNavigate()
  const perms = usePerms()
  const settings = useSettings()
  const licensed = useHasValidLicense()
  const tickets = useAppSelector(selectTickets)
  const showTickets = hasPermission(perms, ['tickets.view_ticket']) && settings.TICKETS_ENABLED !== false && licensed
  const ticketsLabel = tickets > 0 ? t`Tickets, ${tickets} waiting for you` : t`Tickets`
  return (
    <>
      {hasPermission(perms, ['rbac.view_webterminal']) && (
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
            onClick={() => void navigate({ to: pathOf('AssignedTicketList') as never })}
          >
            {tickets > 0 && <Suspense fallback={null}><CounterBadge className={styles.badge} count={tickets} overflowCount={BADGE_MAX} size="small" color="danger" aria-hidden="true" /></Suspense>}
          </Button>
        </Tooltip>
      )}
      {hasPermission(perms, ['settings.view_setting']) && (
        <Tooltip content={t`System settings`} relationship="label">
          <Button
            appearance="transparent"
            className={styles.button}
            icon={<SettingsRegular />}
            onClick={() => void navigate({ to: (viewRoot('settings').redirect ?? '/settings') as never })}
          />
        </Tooltip>
      )}
    </>
  )
}
