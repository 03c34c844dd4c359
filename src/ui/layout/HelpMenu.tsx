import {
  Body1, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Link, makeStyles, Menu,
  MenuItem, MenuItemLink, MenuList, MenuPopover, MenuTrigger, tokens, Tooltip,
} from '@fluentui/react-components'
import { ArrowDownloadRegular, BookRegular, InfoRegular, PersonSupportRegular, QuestionCircleRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { useHeaderStyles } from './headerStyles.ts'
import { useSettings } from './useShell.ts'

/** The version the reference console shows in its About dialog (spec 000 §2.3). */
export const CONSOLE_VERSION = '3.2.2'
export const DOWNLOAD_CENTER_URL = '/core/download/'

const useStyles = makeStyles({ facts: { display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalS, margin: 0 } })

/** Help: documentation, support, download centre (new tab) and the About dialog. */
export function HelpMenu() {
  const { t } = useLingui()
  const header = useHeaderStyles()
  const styles = useStyles()
  const settings = useSettings()
  const [about, setAbout] = useState(false)
  const docs = typeof settings.HELP_DOCUMENT_URL === 'string' ? settings.HELP_DOCUMENT_URL : ''
  const support = typeof settings.HELP_SUPPORT_URL === 'string' ? settings.HELP_SUPPORT_URL : ''
  const corporation = settings.XPACK_LICENSE_INFO?.corporation ?? ''
  const newTab = { target: '_blank', rel: 'noopener noreferrer' }
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
            {docs && <MenuItemLink href={docs} icon={<BookRegular />} {...newTab}>{t`Documentation`}</MenuItemLink>}
            {support && <MenuItemLink href={support} icon={<PersonSupportRegular />} {...newTab}>{t`Support`}</MenuItemLink>}
            <MenuItemLink href={DOWNLOAD_CENTER_URL} icon={<ArrowDownloadRegular />} {...newTab}>{t`Download centre`}</MenuItemLink>
            <MenuItem icon={<InfoRegular />} onClick={() => setAbout(true)}>{t`About`}</MenuItem>
          </MenuList>
        </MenuPopover>
      </Menu>
      <Dialog open={about} onOpenChange={(_, d) => setAbout(d.open)}>
        <DialogSurface>
          <DialogBody>
            <DialogTitle>{t`About`}</DialogTitle>
            <DialogContent>
              <dl className={styles.facts}>
                <dt><Body1>{t`Version`}</Body1></dt>
                <dd data-testid="about-version"><Body1>{CONSOLE_VERSION}</Body1></dd>
                {corporation && (
                  <>
                    <dt><Body1>{t`Licensed to`}</Body1></dt>
                    <dd><Body1>{corporation}</Body1></dd>
                  </>
                )}
                {docs && (
                  <>
                    <dt><Body1>{t`Documentation`}</Body1></dt>
                    <dd><Link href={docs} {...newTab}>{docs}</Link></dd>
                  </>
                )}
                {support && (
                  <>
                    <dt><Body1>{t`Support`}</Body1></dt>
                    <dd><Link href={support} {...newTab}>{support}</Link></dd>
                  </>
                )}
                <dt><Body1>{t`Downloads`}</Body1></dt>
                <dd><Link href={DOWNLOAD_CENTER_URL} {...newTab}>{t`Download centre`}</Link></dd>
              </dl>
            </DialogContent>
            <DialogActions>
              <Button appearance="primary" onClick={() => setAbout(false)}>{t`Close`}</Button>
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
    </>
  )
}
