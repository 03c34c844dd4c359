import { Button, makeStyles } from '@fluentui/react-components'
import { Menu, MenuDivider, MenuItem, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '../ui/common/overlays.tsx'
import { AddRegular, ChevronDownRegular, OrganizationRegular, TextBulletListSquareRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { useAppActor } from '../app/AppProvider.tsx'
import { switchOrganization } from '../app/appActor.ts'
import { pathOf } from '../router/catalog.ts'
import { hasPermission } from '../router/permissions.ts'
import { useHeaderStyles } from './headerStyles.ts'
import { useCurrentRoute, useCurrentView, useHasValidLicense, useOrganizations, usePerms } from './useShell.ts'

/**
 * The organization switcher (spec 000 §2.3): console, audit and workbench only, with a valid licence and
 * organizations for the view. Switching persists per user, sets the X-JMS-ORG cookie, re-reads the profile
 * (permissions are per organization) and re-runs the route guards. The console view also offers the
 * organization list and creation (spec 000 §6).
 */
const useStyles = makeStyles({
  chevron: { marginInlineStart: '6px', flexShrink: 0 },
  // a long name is cut, the more so on a narrow screen, so the header never pushes the page sideways
  name: {
    maxWidth: '200px', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap',
    '@media (max-width: 767.98px)': { maxWidth: '72px' },
  },
  // on a narrow screen the name alone (the button's label says what it is): the view's name needs the room
  icon: { '@media (max-width: 479.98px)': { display: 'none' } },
})

export function OrgSwitcher() {
  const { t } = useLingui()
  const buttonClass = useHeaderStyles().button
  const styles = useStyles()
  const app = useAppActor()
  const router = useRouter()
  const navigate = useNavigate()
  const route = useCurrentRoute()
  const view = useCurrentView()
  const licensed = useHasValidLicense()
  const perms = usePerms()
  const { usingOrgs, currentOrg } = useOrganizations()
  if (!route?.showOrganization || !licensed || usingOrgs.length === 0) return null

  const choose = async (id: string) => {
    const org = usingOrgs.find((o) => o.id === id)
    if (!org || org.id === currentOrg?.id) return
    await switchOrganization(app, org)
    await router.invalidate()
  }
  const canList = view === 'console' && hasPermission(perms, ['orgs.view_organization'])
  const canCreate = view === 'console' && hasPermission(perms, ['orgs.add_organization'])
  const name = currentOrg?.name ?? ''
  return (
    <Menu checkedValues={{ org: currentOrg ? [currentOrg.id] : [] }} onCheckedValueChange={(_, d) => void choose(d.checkedItems[0]!)}>
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="transparent" className={buttonClass} icon={{ children: <OrganizationRegular />, className: styles.icon }} aria-label={t`Switch organization, current: ${name}`}>
          <span className={styles.name}>{name}</span>
          <ChevronDownRegular className={styles.chevron} fontSize={20} aria-hidden="true" />
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {usingOrgs.map((o) => (
            <MenuItemRadio key={o.id} name="org" value={o.id}>{o.name}</MenuItemRadio>
          ))}
          {(canList || canCreate) && <MenuDivider />}
          {canList && (
            <MenuItem icon={<TextBulletListSquareRegular />} onClick={() => void navigate({ to: pathOf('OrganizationList') as never })}>
              {t`Organization list`}
            </MenuItem>
          )}
          {canCreate && (
            <MenuItem icon={<AddRegular />} onClick={() => void navigate({ to: pathOf('OrganizationCreate') as never })}>
              {t`Create organization`}
            </MenuItem>
          )}
        </MenuList>
      </MenuPopover>
    </Menu>
  )
}
