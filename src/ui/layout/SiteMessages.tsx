import { Button, mergeClasses } from '@fluentui/react-components'
import { Tooltip } from '../common/overlays.tsx'
import { Suspense } from 'react'
import { CounterBadge } from '../common/lazyParts.ts'
import { AlertRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useSiteMessages, useSiteMessagesRef, type SiteMessagesSnapshot } from '../../app/AppProvider.tsx'
import { useHeaderStyles } from './headerStyles.ts'

/** Badge cap (spec 000 §9). */
export const BADGE_MAX = 99


const selectUnread = (s: SiteMessagesSnapshot | undefined) => s?.context.unreadCount ?? 0
/** Whether the drawer is open (the shell loads the drawer's code the first time it is). */
export const selectDrawerOpen = (s: SiteMessagesSnapshot | undefined) => s?.matches({ drawer: 'open' }) ?? false

/** The bell with the unread count, pushed live over the websocket (spec 000 §4.5). */
export function SiteMessagesButton() {
  const { t } = useLingui()
  const styles = useHeaderStyles()
  const ref = useSiteMessagesRef()
  const unread = useSiteMessages(selectUnread)
  const label = unread > 0 ? t`Messages, ${unread} unread` : t`Messages`
  return (
    <Tooltip content={t`Messages`} relationship="description">
      <Button
        appearance="transparent"
        className={mergeClasses(styles.button, styles.iconButton)}
        icon={<AlertRegular />}
        aria-label={label}
        data-testid="site-messages-button"
        onClick={() => ref?.send({ type: 'OPEN_DRAWER' })}
      >
        {unread > 0 && <Suspense fallback={null}><CounterBadge className={styles.badge} count={unread} overflowCount={BADGE_MAX} size="small" color="danger" aria-hidden="true" data-testid="site-messages-badge" /></Suspense>}
      </Button>
    </Tooltip>
  )
}

