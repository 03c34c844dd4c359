import {
  Body1, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Link, makeStyles, tokens,
} from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { CONSOLE_VERSION, DOWNLOAD_CENTER_URL } from './HelpMenu.tsx'
import { useSettings } from './useShell.ts'

const useStyles = makeStyles({ facts: { display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: tokens.spacingHorizontalL, rowGap: tokens.spacingVerticalS, margin: 0 } })

/** The About dialog of the help menu (HelpMenu.tsx loads it when first opened). */
export function AboutDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const settings = useSettings()
  const docs = typeof settings.HELP_DOCUMENT_URL === 'string' ? settings.HELP_DOCUMENT_URL : ''
  const support = typeof settings.HELP_SUPPORT_URL === 'string' ? settings.HELP_SUPPORT_URL : ''
  const corporation = settings.XPACK_LICENSE_INFO?.corporation ?? ''
  const newTab = { target: '_blank', rel: 'noopener noreferrer' }
  const setAbout = onOpenChange
  const about = open
  return (
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
  )
}
