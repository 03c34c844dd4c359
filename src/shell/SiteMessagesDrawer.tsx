import {
  Body1, Button, Caption1, DrawerBody, DrawerHeader, DrawerHeaderTitle, makeStyles, MessageBar, MessageBarBody,
  OverlayDrawer, Spinner, Subtitle2, tokens,
} from '@fluentui/react-components'
import { CheckmarkRegular, DismissRegular, MailReadRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useSiteMessages, useSiteMessagesRef, type SiteMessagesSnapshot } from '../app/AppProvider.tsx'
import { useMediaQuery, MOBILE_QUERY } from './sidebar.ts'
import { selectDrawerOpen as selectOpen } from './SiteMessages.tsx'

const useStyles = makeStyles({
  drawer: { width: '380px', maxWidth: '100vw' },
  drawerMobile: { width: '70vw' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  item: {
    display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, padding: tokens.spacingVerticalS,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  itemHead: { display: 'flex', alignItems: 'flex-start', gap: tokens.spacingHorizontalS },
  subject: { flexGrow: 1, overflowWrap: 'anywhere' },
  message: { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', color: tokens.colorNeutralForeground2 },
  empty: { padding: tokens.spacingVerticalXL, textAlign: 'center', color: tokens.colorNeutralForeground3 },
})

const selectDrawer = (s: SiteMessagesSnapshot | undefined) => ({
  loading: s?.matches({ drawer: { open: 'loading' } }) ?? false,
  messages: s?.context.messages ?? [],
  total: s?.context.total ?? 0,
  error: s?.context.drawerError ?? null,
  marking: s?.context.markingIds ?? [],
})

/** The drawer: the 15 newest unread messages, mark one or all as read (spec 000 §2.4). */
export function SiteMessagesDrawer() {
  const { t } = useLingui()
  const styles = useStyles()
  const ref = useSiteMessagesRef()
  const open = useSiteMessages(selectOpen)
  const { loading, messages, total, error, marking } = useSiteMessages(selectDrawer, (a, b) =>
    a.loading === b.loading && a.messages === b.messages && a.total === b.total && a.error === b.error && a.marking === b.marking)
  const isMobile = useMediaQuery(MOBILE_QUERY)
  const close = () => ref?.send({ type: 'CLOSE_DRAWER' })
  const errorText = error ? (error.error instanceof Error ? error.error.message : t`The messages could not be loaded.`) : ''
  return (
    <OverlayDrawer
      position="end"
      open={open}
      onOpenChange={(_, d) => !d.open && close()}
      className={isMobile ? styles.drawerMobile : styles.drawer}
      aria-labelledby="site-messages-title"
    >
      <DrawerHeader>
        <DrawerHeaderTitle
          heading={{ id: 'site-messages-title' }}
          action={<Button appearance="subtle" aria-label={t`Close`} icon={<DismissRegular />} onClick={close} />}
        >
          {t`Messages`}
        </DrawerHeaderTitle>
        <div>
          <Button
            size="small"
            icon={<MailReadRegular />}
            disabled={messages.length === 0}
            onClick={() => ref?.send({ type: 'MARK_ALL_READ' })}
          >
            {t`Mark all as read`}
          </Button>
        </div>
      </DrawerHeader>
      <DrawerBody>
        {error && (
          <MessageBar intent="error">
            <MessageBarBody>{errorText}</MessageBarBody>
          </MessageBar>
        )}
        {loading && messages.length === 0 ? (
          <Spinner label={t`Loading…`} />
        ) : messages.length === 0 ? (
          <Body1 className={styles.empty} as="p">{t`No unread messages`}</Body1>
        ) : (
          <>
            <Caption1 as="p">{t`${total} unread`}</Caption1>
            <ul className={styles.list} aria-label={t`Unread messages`}>
              {messages.map((m) => (
                <li key={m.id} className={styles.item}>
                  <div className={styles.itemHead}>
                    <Subtitle2 as="h3" className={styles.subject}>{m.content.subject}</Subtitle2>
                    <Button
                      size="small"
                      appearance="subtle"
                      icon={<CheckmarkRegular />}
                      disabled={marking.includes(m.id)}
                      aria-label={t`Mark "${m.content.subject}" as read`}
                      onClick={() => ref?.send({ type: 'MARK_READ', ids: [m.id] })}
                    />
                  </div>
                  <Caption1>{m.date_created}{m.content.sender ? ` · ${m.content.sender}` : ''}</Caption1>
                  <Body1 className={styles.message}>{m.content.message}</Body1>
                </li>
              ))}
            </ul>
          </>
        )}
      </DrawerBody>
    </OverlayDrawer>
  )
}
