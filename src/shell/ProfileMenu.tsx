import { Button } from '@fluentui/react-components'
import { Menu, MenuDivider, MenuGroup, MenuGroupHeader, MenuItem, MenuItemRadio, MenuList, MenuPopover, MenuTrigger } from '../ui/common/overlays.tsx'
import { ContactCardRegular, DarkThemeRegular, KeyMultipleRegular, LocalLanguageRegular, PasswordRegular, PersonSettingsRegular, PlugConnectedRegular, SignOutRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { logoutUrl } from '../app/appActor.ts'
import { switchLocale, type Locale } from '../app/i18n.ts'
import type { ThemeMode } from '../app/theme.ts'
import { setThemeMode, useThemeMode } from '../app/themeMode.ts'
import { pathOf, routeByName } from '../router/catalog.ts'
import { isRouteAccessible } from '../router/guards.ts'
import { useHeaderStyles } from './headerStyles.ts'
import { Initials } from './Initials.tsx'
import { useGuardFacts, useProfile } from './useShell.ts'

/** Language names are written in their own language, so anyone can find theirs. */
const LANGUAGES: { value: Locale; label: string }[] = [
  { value: 'zh', label: '中文' },
  { value: 'en', label: 'English' },
  { value: 'ja', label: '日本語' },
]
const PROFILE_PAGES = [
  { name: 'ProfileInfo', icon: <ContactCardRegular /> },
  { name: 'ProfileSetting', icon: <PersonSettingsRegular /> },
  { name: 'ApiKey', icon: <KeyMultipleRegular /> },
  { name: 'TempPassword', icon: <PasswordRegular /> },
  { name: 'ConnectionToken', icon: <PlugConnectedRegular /> },
] as const

/** The user menu: profile pages, language, theme, logout (a full-page navigation, spec 000 §2.3). */
export function ProfileMenu() {
  const { t, i18n } = useLingui()
  const header = useHeaderStyles()
  const profile = useProfile()
  const facts = useGuardFacts()
  const navigate = useNavigate()
  const { mode } = useThemeMode()
  const pages = PROFILE_PAGES.map((p) => ({ ...p, route: routeByName(p.name)! })).filter((p) => isRouteAccessible(p.route, facts))
  const themes: { value: ThemeMode; label: string }[] = [
    { value: 'light', label: t`Light` },
    { value: 'dark', label: t`Dark` },
    { value: 'system', label: t`Same as the system` },
  ]
  const name = profile.name || profile.username
  return (
    <Menu
      checkedValues={{ lang: [i18n.locale], theme: [mode] }}
      onCheckedValueChange={(_, d) => {
        const value = d.checkedItems[0]
        if (d.name === 'lang' && value) void switchLocale(value as Locale)
        if (d.name === 'theme' && value) setThemeMode(value as ThemeMode)
      }}
    >
      <MenuTrigger disableButtonEnhancement>
        <Button appearance="transparent" className={header.button} aria-label={t`User menu: ${name}`} data-testid="profile-menu">
          <Initials name={name} />
        </Button>
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuGroup>
            <MenuGroupHeader>{name}</MenuGroupHeader>
            {pages.map((p) => (
              <MenuItem key={p.name} icon={p.icon} onClick={() => void navigate({ to: pathOf(p.name) as never })}>
                {i18n._(p.route.title)}
              </MenuItem>
            ))}
          </MenuGroup>
          <MenuDivider />
          <MenuGroup>
            <MenuGroupHeader><LocalLanguageRegular aria-hidden="true" /> {t`Language`}</MenuGroupHeader>
            {LANGUAGES.map((l) => (
              <MenuItemRadio key={l.value} name="lang" value={l.value} lang={l.value === 'zh' ? 'zh-CN' : l.value}>{l.label}</MenuItemRadio>
            ))}
          </MenuGroup>
          <MenuDivider />
          <MenuGroup>
            <MenuGroupHeader><DarkThemeRegular aria-hidden="true" /> {t`Theme`}</MenuGroupHeader>
            {themes.map((th) => (
              <MenuItemRadio key={th.value} name="theme" value={th.value}>{th.label}</MenuItemRadio>
            ))}
          </MenuGroup>
          <MenuDivider />
          <MenuItem icon={<SignOutRegular />} onClick={() => window.location.assign(logoutUrl())}>{t`Log out`}</MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  )
}
