import { Button, makeStyles, tokens } from '@fluentui/react-components'
import { Menu, MenuDivider, MenuGroup, MenuGroupHeader, MenuItem, MenuItemLink, MenuList, MenuPopover, MenuTrigger, Tooltip } from '../ui/common/overlays.tsx'
import { AlertRegular, MoreVerticalRegular, QuestionCircleRegular, SettingsRegular, TicketDiagonalRegular, WindowConsoleRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useSiteMessages, useSiteMessagesRef } from '../app/AppProvider.tsx'
import { useHeaderShortcuts, WEB_TERMINAL_URL } from './HeaderActions.tsx'
import { useHeaderStyles } from './headerStyles.ts'
import { HelpItems, LazyAboutDialog } from './HelpMenu.tsx'
import { BADGE_MAX, selectUnread } from './SiteMessages.tsx'

const useStyles = makeStyles({
  count: {
    marginInlineStart: tokens.spacingHorizontalS, paddingInline: tokens.spacingHorizontalXS, borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorPaletteRedBackground3, color: tokens.colorNeutralForegroundOnBrand, fontSize: tokens.fontSizeBase100,
  },
  dot: {
    position: 'absolute', top: '8px', right: '6px', width: '8px', height: '8px', borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorPaletteRedBackground3, pointerEvents: 'none',
  },
})

const capped = (n: number) => (n > BADGE_MAX ? `${BADGE_MAX}+` : String(n))

/**
 * The header's shortcuts condensed into one menu on narrow screens (issue 35): web terminal, tickets, system
 * settings, messages and help, as the wide header shows them as icons; a dot on the button says something waits.
 */
export function HeaderMenu() {
  const { t } = useLingui()
  const header = useHeaderStyles()
  const styles = useStyles()
  const shortcuts = useHeaderShortcuts()
  const messages = useSiteMessagesRef()
  const unread = useSiteMessages(selectUnread)
  const [about, setAbout] = useState(false)
  const waiting = unread > 0 || (shortcuts.tickets && shortcuts.ticketsCount > 0)
  const label = waiting ? t`More: messages or tickets are waiting` : t`More`
  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Tooltip content={t`More`} relationship="description">
            <Button appearance="transparent" className={`${header.button} ${header.iconButton}`} icon={<MoreVerticalRegular />} aria-label={label} data-testid="header-menu">
              {waiting && <span className={styles.dot} aria-hidden="true" />}
            </Button>
          </Tooltip>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {shortcuts.terminal && (
              <MenuItemLink href={WEB_TERMINAL_URL} target="_blank" rel="noopener noreferrer" icon={<WindowConsoleRegular />}>{t`Web terminal`}</MenuItemLink>
            )}
            {shortcuts.tickets && (
              <MenuItem icon={<TicketDiagonalRegular />} onClick={shortcuts.openTickets} aria-label={shortcuts.ticketsLabel}>
                {t`Tickets`}{shortcuts.ticketsCount > 0 && <span className={styles.count} aria-hidden="true">{capped(shortcuts.ticketsCount)}</span>}
              </MenuItem>
            )}
            {shortcuts.settings && <MenuItem icon={<SettingsRegular />} onClick={shortcuts.openSettings}>{t`System settings`}</MenuItem>}
            <MenuItem icon={<AlertRegular />} onClick={() => messages?.send({ type: 'OPEN_DRAWER' })} aria-label={unread > 0 ? t`Messages, ${unread} unread` : t`Messages`}>
              {t`Messages`}{unread > 0 && <span className={styles.count} aria-hidden="true">{capped(unread)}</span>}
            </MenuItem>
            <MenuDivider />
            <MenuGroup>
              <MenuGroupHeader><QuestionCircleRegular aria-hidden="true" /> {t`Help`}</MenuGroupHeader>
              <HelpItems onAbout={() => setAbout(true)} />
            </MenuGroup>
          </MenuList>
        </MenuPopover>
      </Menu>
      <LazyAboutDialog when={about} open={about} onOpenChange={setAbout} />
    </>
  )
}
