/**
 * Settings → Authentication (the switches and one tab per single sign-on protocol), SMS (the switch and one tab
 * per provider), Interface, Terminal and Other: each tab one settings category rendered from its OPTIONS by the
 * generic object form (src/ui/form/ObjectFormPage.tsx), secrets shown as set / not set, images uploaded.
 */
import { Button, Spinner, Tab, TabList } from '@fluentui/react-components'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useNavigate } from '@tanstack/react-router'
import { useState } from 'react'
import { settingsCategoryUrl } from '../../api/settings.ts'
import { sendTestSms } from '../../api/settingsTools.ts'
import { describeError } from '../../ui/common/errors.ts'
import { notify } from '../../ui/common/notify.tsx'
import { ObjectFormPage, type ObjectFormPageConfig } from '../../ui/form/ObjectFormPage.tsx'
import { encryptForServer, type ResourceForm } from '../../ui/form/useResourceForm.ts'
import type { FormValues } from '../../ui/form/validators.ts'

const AUTH = 'settings.change_auth'
const SMS = 'settings.change_sms'

const oidcEndpoints = [
  'AUTH_OPENID_PROVIDER_ENDPOINT', 'AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT', 'AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT',
  'AUTH_OPENID_PROVIDER_JWKS_ENDPOINT', 'AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT', 'AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT',
]
const keycloakOff = (v: FormValues) => v.AUTH_OPENID_KEYCLOAK !== true
const keycloakOn = (v: FormValues) => v.AUTH_OPENID_KEYCLOAK === true

/** One tab: its key (also the category) and the page config. */
export interface SettingsTab { key: string; title: MessageDescriptor; config: ObjectFormPageConfig }

const tab = (category: string, title: MessageDescriptor, perm: string, rest: Partial<ObjectFormPageConfig> = {}): SettingsTab =>
  ({ key: category, title, config: { url: settingsCategoryUrl(category), title, changePerm: perm, ...rest } })

export const authTabs: SettingsTab[] = [
  tab('auth', msg`Authentication`, AUTH, {
    help: msg`Switch the login methods on or off; each method's settings are on its own tab.`,
    layout: [[msg`Login methods`, ['AUTH_CAS', 'AUTH_OPENID', 'AUTH_SAML2', 'AUTH_RADIUS', 'AUTH_SSO', 'AUTH_DINGTALK', 'AUTH_FEISHU', 'AUTH_WECOM']],
      [msg`Login page`, ['FORGOT_PASSWORD_URL', 'LOGIN_REDIRECT_MSG_ENABLED']]],
  }),
  tab('cas', msg`CAS`, AUTH, {
    layout: [[msg`Server`, ['AUTH_CAS', 'CAS_SERVER_URL', 'CAS_ROOT_PROXIED_AS', 'CAS_VERSION', 'CAS_LOGOUT_COMPLETELY']],
      [msg`Users`, ['CAS_USERNAME_ATTRIBUTE', 'CAS_APPLY_ATTRIBUTES_TO_USER', 'CAS_RENAME_ATTRIBUTES', 'CAS_CREATE_USER']]],
    overrides: { CAS_RENAME_ATTRIBUTES: { hidden: (v) => v.CAS_APPLY_ATTRIBUTES_TO_USER !== true } },
  }),
  tab('oidc', msg`OIDC`, AUTH, {
    help: msg`The provider must accept the redirect URI <site>/core/auth/openid/callback/ for this client.`,
    layout: [
      [msg`Client`, ['AUTH_OPENID', 'BASE_SITE_URL', 'AUTH_OPENID_CLIENT_ID', 'AUTH_OPENID_CLIENT_SECRET', 'AUTH_OPENID_CLIENT_AUTH_METHOD', 'AUTH_OPENID_SCOPES']],
      [msg`Provider`, ['AUTH_OPENID_KEYCLOAK', 'AUTH_OPENID_SERVER_URL', 'AUTH_OPENID_REALM_NAME', ...oidcEndpoints,
        'AUTH_OPENID_PROVIDER_SIGNATURE_ALG', 'AUTH_OPENID_PROVIDER_SIGNATURE_KEY']],
      [msg`Security`, ['AUTH_OPENID_PKCE', 'AUTH_OPENID_CODE_CHALLENGE_METHOD', 'AUTH_OPENID_USE_STATE', 'AUTH_OPENID_USE_NONCE',
        'AUTH_OPENID_ID_TOKEN_MAX_AGE', 'AUTH_OPENID_ID_TOKEN_INCLUDE_CLAIMS', 'AUTH_OPENID_IGNORE_SSL_VERIFICATION', 'AUTH_OPENID_SHARE_SESSION']],
      [msg`Users`, ['AUTH_OPENID_USER_ATTR_MAP', 'AUTH_OPENID_ALWAYS_UPDATE_USER']],
    ],
    overrides: {
      AUTH_OPENID_SERVER_URL: { hidden: keycloakOff },
      AUTH_OPENID_REALM_NAME: { hidden: keycloakOff },
      ...Object.fromEntries(oidcEndpoints.map((k) => [k, { hidden: keycloakOn }])),
      AUTH_OPENID_CODE_CHALLENGE_METHOD: { hidden: (v) => v.AUTH_OPENID_PKCE !== true },
    },
  }),
  tab('oauth2', msg`OAuth2`, AUTH, {
    layout: [
      [msg`Client`, ['AUTH_OAUTH2', 'AUTH_OAUTH2_PROVIDER', 'AUTH_OAUTH2_LOGO_PATH', 'AUTH_OAUTH2_CLIENT_ID', 'AUTH_OAUTH2_CLIENT_SECRET', 'AUTH_OAUTH2_SCOPE']],
      [msg`Provider`, ['AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT', 'AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT', 'AUTH_OAUTH2_ACCESS_TOKEN_METHOD',
        'AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT', 'AUTH_OAUTH2_PROVIDER_END_SESSION_ENDPOINT', 'AUTH_OAUTH2_LOGOUT_COMPLETELY']],
      [msg`Users`, ['AUTH_OAUTH2_USER_ATTR_MAP', 'AUTH_OAUTH2_ALWAYS_UPDATE_USER']],
    ],
  }),
  tab('saml2', msg`SAML2`, AUTH, {
    layout: [
      [msg`Identity provider`, ['AUTH_SAML2', 'SAML2_IDP_METADATA_URL', 'SAML2_IDP_METADATA_XML']],
      [msg`Service provider`, ['SAML2_SP_KEY_CONTENT', 'SAML2_SP_CERT_CONTENT', 'SAML2_SP_ADVANCED_SETTINGS', 'SAML2_LOGOUT_COMPLETELY']],
      [msg`Users`, ['SAML2_RENAME_ATTRIBUTES', 'AUTH_SAML2_ALWAYS_UPDATE_USER']],
    ],
  }),
  tab('radius', msg`RADIUS`, AUTH),
  tab('sso', msg`SSO token`, AUTH),
]

const SECRET_KEYS = ['ALIBABA_ACCESS_KEY_SECRET', 'TENCENT_SECRET_KEY', 'HUAWEI_APP_SECRET', 'CMPP2_SP_SECRET']

/** "Test SMS": sends 666666 to the test phone through the provider with the tab's values as typed. */
function TestSmsButton({ backend, form }: { backend: string; form: ResourceForm }) {
  const { t } = useLingui()
  const [busy, setBusy] = useState(false)
  const go = async () => {
    setBusy(true)
    try {
      const values = Object.fromEntries(Object.entries(form.values).map(([k, v]) =>
        [k, SECRET_KEYS.includes(k) && typeof v === 'string' && v ? encryptForServer(v) : v]))
      notify('success', await sendTestSms(backend, values))
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setBusy(false)
    }
  }
  return <Button disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined} onClick={() => void go()}>{t`Test SMS`}</Button>
}

export const smsTabs: SettingsTab[] = [
  tab('sms', msg`SMS`, SMS, { help: msg`Verification codes go out through the provider chosen here once SMS is on.` }),
  tab('alibaba', msg`Alibaba cloud`, SMS, { actions: (form) => <TestSmsButton backend="alibaba" form={form} /> }),
  tab('tencent', msg`Tencent cloud`, SMS, { actions: (form) => <TestSmsButton backend="tencent" form={form} /> }),
  tab('huawei', msg`Huawei Cloud`, SMS, { actions: (form) => <TestSmsButton backend="huawei" form={form} /> }),
  tab('cmpp2', msg`CMPP v2.0`, SMS, { actions: (form) => <TestSmsButton backend="cmpp2" form={form} /> }),
]

export const interfaceSettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('interface'),
  title: msg`Interface`,
  changePerm: 'settings.change_interface',
  layout: [
    [msg`Login page`, ['INTERFACE_LOGIN_TITLE', 'INTERFACE_LOGO_LOGOUT', 'INTERFACE_LOGIN_IMAGE', 'INTERFACE_FAVICON']],
    [msg`Console`, ['INTERFACE_LOGO_INDEX', 'INTERFACE_THEME']],
  ],
}

export const terminalSettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('terminal'),
  title: msg`Terminal settings`,
  changePerm: 'settings.change_terminal',
  layout: [
    [msg`Authentication`, ['TERMINAL_PASSWORD_AUTH', 'TERMINAL_PUBLIC_KEY_AUTH']],
    [msg`Asset list`, ['TERMINAL_ASSET_LIST_SORT_BY', 'TERMINAL_ASSET_LIST_PAGE_SIZE']],
    [msg`Components`, ['TERMINAL_KOKO_SSH_ENABLED', 'TERMINAL_MAGNUS_ENABLED', 'TERMINAL_RAZOR_ENABLED', 'TERMINAL_TELNET_REGEX', 'TERMINAL_GRAPHICAL_RESOLUTION']],
  ],
}

export const otherSettingsConfig: ObjectFormPageConfig = {
  url: settingsCategoryUrl('other'),
  title: msg`Other settings`,
  changePerm: 'settings.change_other',
  layout: [
    [msg`Users`, ['EMAIL_SUFFIX', 'OTP_ISSUER_NAME', 'OTP_VALID_WINDOW']],
    [msg`Permissions and tickets`, ['PERM_SINGLE_ASSET_TO_UNGROUP_NODE', 'TICKET_AUTHORIZE_DEFAULT_TIME', 'TICKET_AUTHORIZE_DEFAULT_TIME_UNIT']],
    [msg`Help`, ['HELP_DOCUMENT_URL', 'HELP_SUPPORT_URL']],
    [msg`Cloud sync`, ['CLOUD_SCAN_ALLOWED_NETWORKS']],
  ],
}

/** A settings page made of tabs, one category each; the tab list sits above the selected category's form. */
/** A tab that opens a page of its own (a category with more than a form, e.g. LDAP with its user import). */
export interface SettingsLinkTab { key: string; title: MessageDescriptor; to: string }

/** A settings page made of tabs, one category each; the tab list sits above the selected category's form. */
export function SettingsTabsPage({ tabs, links = [], label }: { tabs: readonly SettingsTab[]; links?: readonly SettingsLinkTab[]; label: MessageDescriptor }) {
  const { i18n } = useLingui()
  const navigate = useNavigate()
  const [selected, setSelected] = useState(tabs[0]!.key)
  const current = tabs.find((x) => x.key === selected) ?? tabs[0]!
  const onSelect = (value: string) => {
    const link = links.find((l) => l.key === value)
    if (link) void navigate({ to: link.to })
    else setSelected(value)
  }
  const list = (
    <TabList selectedValue={current.key} onTabSelect={(_, d) => onSelect(String(d.value))} aria-label={i18n._(label)}>
      {tabs.map((x) => <Tab key={x.key} value={x.key}>{i18n._(x.title)}</Tab>)}
      {links.map((x) => <Tab key={x.key} value={x.key}>{i18n._(x.title)}</Tab>)}
    </TabList>
  )
  return <ObjectFormPage config={current.config} tabs={list} />
}

const authLinks: SettingsLinkTab[] = [{ key: 'ldap', title: msg`LDAP`, to: '/settings/auth/ldap' }]

export const AuthSettingsPage = () => <SettingsTabsPage tabs={authTabs} links={authLinks} label={msg`Authentication`} />
export const SmsSettingsPage = () => <SettingsTabsPage tabs={smsTabs} label={msg`SMS`} />
export const InterfaceSettingsPage = () => <ObjectFormPage config={interfaceSettingsConfig} />
export const OtherSettingsPage = () => <ObjectFormPage config={otherSettingsConfig} />
