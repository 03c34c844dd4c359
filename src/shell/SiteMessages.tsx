import { Button, mergeClasses } from '@fluentui/react-components'
import { Tooltip } from '../ui/common/overlays.tsx'
import { Suspense } from 'react'
import { CounterBadge } from '../ui/common/lazyParts.ts'
import { AlertOffRegular, AlertRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useSiteMessages, useSiteMessagesRef, type SiteMessagesSnapshot } from '../app/AppProvider.tsx'
import { useHeaderStyles } from './headerStyles.ts'

/** Badge cap (spec 000 §9). */
export const BADGE_MAX = 99


export const selectUnread = (s: SiteMessagesSnapshot | undefined) => s?.context.unreadCount ?? 0
/** The site-message socket: `open` (live), `connecting`, or interrupted (`waiting` to retry, `reconnecting`). */
export type LiveState = 'connecting' | 'open' | 'waiting' | 'reconnecting'
const selectLive = (s: SiteMessagesSnapshot | undefined): LiveState =>
  !s ? 'connecting'
    : s.matches({ connection: 'waiting' }) ? 'waiting'
      : s.matches({ connection: { active: 'open' } }) ? 'open'
        : s.matches({ connection: { active: 'reconnecting' } }) ? 'reconnecting' : 'connecting'

/** Whether the drawer is open (the shell loads the drawer's code the first time it is). */
export const selectDrawerOpen = (s: SiteMessagesSnapshot | undefined) => s?.matches({ drawer: 'open' }) ?? false

/** The bell with the unread count, pushed live over the websocket (spec 000 §4.5). */
export function SiteMessagesButton() {
  const { t } = useLingui()
  const styles = useHeaderStyles()
  const ref = useSiteMessagesRef()
  const unread = useSiteMessages(selectUnread)
  const live = useSiteMessages(selectLive)
  // after a drop the count may be stale until the socket is back: say so (the badge keeps the last count)
  const interrupted = live === 'waiting' || live === 'reconnecting'
  const count = unread > 0 ? t`Messages, ${unread} unread` : t`Messages`
  const label = interrupted ? t`${count} (live updates interrupted, reconnecting…)` : count
  return (
    <Tooltip content={interrupted ? t`Messages: live updates interrupted, reconnecting…` : t`Messages`} relationship="description">
      <Button
        appearance="transparent"
        className={mergeClasses(styles.button, styles.iconButton)}
        icon={interrupted ? <AlertOffRegular /> : <AlertRegular />}
        aria-label={label}
        data-testid="site-messages-button"
        data-live={live}
        onClick={() => ref?.send({ type: 'OPEN_DRAWER' })}
      >
        {unread > 0 && <Suspense fallback={null}><CounterBadge className={styles.badge} count={unread} overflowCount={BADGE_MAX} size="small" color="danger" aria-hidden="true" data-testid="site-messages-badge" /></Suspense>}
      </Button>
    </Tooltip>
  )
}

