import { Button, makeStyles, mergeClasses, Text, tokens } from '@fluentui/react-components'
import { Tooltip } from '../ui/common/overlays.tsx'
import { NavigationRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { HeaderActions } from './HeaderActions.tsx'
import { useHeaderStyles } from './headerStyles.ts'
import { HelpMenu } from './HelpMenu.tsx'
import { OrgSwitcher } from './OrgSwitcher.tsx'
import { ProfileMenu } from './ProfileMenu.tsx'
import { SiteMessagesButton } from './SiteMessages.tsx'
import { useFrameStyles } from './frames.tsx'
import { useSettings } from './useShell.ts'
import { ViewSwitcher } from './ViewSwitcher.tsx'

const useStyles = makeStyles({
  bar: { gap: tokens.spacingHorizontalXS },
  brand: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginInline: tokens.spacingHorizontalS, minWidth: 0 },
  logo: { height: '28px', maxWidth: '160px', objectFit: 'contain' },
  title: { fontWeight: tokens.fontWeightSemibold, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' },
  spacer: { flexGrow: 1 },
  group: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXXS },
})

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
  return (
    <header className={mergeClasses(frames.header, frames.row, styles.bar)}>
      <Tooltip content={navOpen ? t`Hide the menu` : t`Show the menu`} relationship="label">
        <Button appearance="transparent" className={header.button} icon={<NavigationRegular />} aria-expanded={navOpen} aria-controls={navOpen ? 'main-menu' : undefined} onClick={onToggleNav} />
      </Tooltip>
      <div className={styles.brand}>
        {/* the product name of the Interface settings, as on the login page (issue 35); the logo beside it */}
        {logo && !logoBroken && <img className={styles.logo} src={logo} alt="" onError={() => setLogoBroken(true)} />}
        <Text className={styles.title}>{title}</Text>
      </div>
      <nav className={styles.group} aria-label={t`View and organization`}>
        <ViewSwitcher />
        <OrgSwitcher />
      </nav>
      <div className={styles.spacer} />
      <div className={styles.group}>
        <HeaderActions />
        <SiteMessagesButton />
        <HelpMenu />
        <ProfileMenu />
      </div>
    </header>
  )
}
