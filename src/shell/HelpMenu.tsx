import { Button } from '@fluentui/react-components'
import { Menu, MenuItem, MenuItemLink, MenuList, MenuPopover, MenuTrigger, Tooltip } from '../ui/common/overlays.tsx'
import { ArrowDownloadRegular, BookRegular, InfoRegular, PersonSupportRegular, QuestionCircleRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { deferred } from '../ui/common/deferred.tsx'
import { useHeaderStyles } from './headerStyles.ts'
import { useSettings } from './useShell.ts'

/** The version the reference console shows in its About dialog (spec 000 §2.3). */
export const CONSOLE_VERSION = '3.2.2'
export const DOWNLOAD_CENTER_URL = '/core/download/'

const AboutDialog = deferred(() => import('./AboutDialog.tsx').then((m) => m.AboutDialog))

/** The help menu's entries (the help menu and the condensed header's menu show the same). */
export function HelpItems({ onAbout }: { onAbout: () => void }) {
  const { t } = useLingui()
  const settings = useSettings()
  const docs = typeof settings.HELP_DOCUMENT_URL === 'string' ? settings.HELP_DOCUMENT_URL : ''
  const support = typeof settings.HELP_SUPPORT_URL === 'string' ? settings.HELP_SUPPORT_URL : ''
  const newTab = { target: '_blank', rel: 'noopener noreferrer' }
  return (
    <>
      {docs && <MenuItemLink href={docs} icon={<BookRegular />} {...newTab}>{t`Documentation`}</MenuItemLink>}
      {support && <MenuItemLink href={support} icon={<PersonSupportRegular />} {...newTab}>{t`Support`}</MenuItemLink>}
      <MenuItemLink href={DOWNLOAD_CENTER_URL} icon={<ArrowDownloadRegular />} {...newTab}>{t`Download centre`}</MenuItemLink>
      <MenuItem icon={<InfoRegular />} onClick={onAbout}>{t`About`}</MenuItem>
    </>
  )
}

export const LazyAboutDialog = AboutDialog

/** Help: documentation, support, download centre (new tab) and the About dialog. */
export function HelpMenu() {
  const { t } = useLingui()
  const header = useHeaderStyles()
  const [about, setAbout] = useState(false)
  return (
    <>
      <Menu>
        <MenuTrigger disableButtonEnhancement>
          <Tooltip content={t`Help`} relationship="label">
            <Button appearance="transparent" className={header.button} icon={<QuestionCircleRegular />} />
          </Tooltip>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            <HelpItems onAbout={() => setAbout(true)} />
          </MenuList>
        </MenuPopover>
      </Menu>
      <AboutDialog when={about} open={about} onOpenChange={setAbout} />
    </>
  )
}
