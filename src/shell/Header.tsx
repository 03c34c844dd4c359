import { Button, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components'
import { Tooltip } from '../ui/common/overlays.tsx'
import { NavigationRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { HeaderActions } from './HeaderActions.tsx'
import { HeaderMenu } from './HeaderMenu.tsx'
import { useMediaQuery } from './sidebar.ts'
import { useHeaderStyles } from './headerStyles.ts'
import { HelpMenu } from './HelpMenu.tsx'
import { OrgSwitcher } from './OrgSwitcher.tsx'
import { ProfileMenu } from './ProfileMenu.tsx'
import { SiteMessagesButton } from './SiteMessages.tsx'
import { useFrameStyles } from './frames.tsx'
import { useSettings } from './useShell.ts'
import { ViewSwitcher } from './ViewSwitcher.tsx'

const useStyles = makeStyles({
  bar: { gap: tokens.spacingHorizontalXS, minWidth: 0 },
  // the brand gives way first: it shrinks and clips its logo, never drawing over the switchers beside it
  brand: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginInline: tokens.spacingHorizontalS, minWidth: 0, flexShrink: 1, overflow: 'hidden' },
  logo: { height: '28px', maxWidth: '160px', objectFit: 'contain', objectPosition: 'left center', minWidth: 0 },
  title: { fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  spacer: { flexGrow: 1 },
  group: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS, minWidth: 0 },
  switchers: { flexShrink: 1 },
  end: { flexShrink: 0 },
})

/** Below this width the header's shortcuts fold into one menu and the brand leaves the bar (issue 35). */
export const CONDENSED_HEADER_QUERY = '(max-width: 767.98px)'
/** Below this width the brand leaves the bar: the switchers need its room. */
const NO_BRAND_QUERY = '(max-width: 479.98px)'

/** The header bar (spec 000 §2.3). */
export function Header({ navOpen, onToggleNav }: { navOpen: boolean; onToggleNav: () => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const frames = useFrameStyles()
  const header = useHeaderStyles()
  const settings = useSettings()
  const logo = settings.INTERFACE?.logo_index
  const title = settings.INTERFACE?.login_title || 'JumpServer'
  const [logoBroken, setLogoBroken] = useState(false)
  const condensed = useMediaQuery(CONDENSED_HEADER_QUERY)
  const noBrand = useMediaQuery(NO_BRAND_QUERY)
  return (
    <header className={mergeClasses(frames.header, frames.row, styles.bar)}>
      <Tooltip content={navOpen ? t`Hide the menu` : t`Show the menu`} relationship="label">
        <Button appearance="transparent" className={header.button} icon={<NavigationRegular />} aria-expanded={navOpen} aria-controls={navOpen ? 'main-menu' : undefined} onClick={onToggleNav} />
      </Tooltip>
      {!noBrand && (
        <div className={styles.brand}>
          {/* the product name of the Interface settings, as on the login page (issue 35); the logo beside it */}
          {logo && !logoBroken && <img className={styles.logo} src={logo} alt="" onError={() => setLogoBroken(true)} />}
          <Text className={styles.title}>{title}</Text>
        </div>
      )}
      <nav className={mergeClasses(styles.group, styles.switchers)} aria-label={t`View and organization`}>
        <ViewSwitcher />
        <OrgSwitcher />
      </nav>
      <div className={styles.spacer} />
      <div className={mergeClasses(styles.group, styles.end)}>
        {condensed ? <HeaderMenu /> : (
          <>
            <HeaderActions />
            <SiteMessagesButton />
            <HelpMenu />
          </>
        )}
        <ProfileMenu />
      </div>
    </header>
  )
}
