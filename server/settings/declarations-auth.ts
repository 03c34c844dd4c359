/**
 * The authentication categories of the settings API (contract §4.18, §5.12): the switches (`auth`), the single
 * sign-on protocols (`cas`, `oidc`, `keycloak`, `oauth2`, `saml2`, `radius`, `sso`) and SMS (`sms` and one
 * category per provider). Fields, labels, limits and defaults follow JumpServer 3.2's
 * `apps/settings/serializers/auth/*.py` and its config defaults; every client secret, shared secret and private
 * key is a sealed secret (never returned; SECRETS_SET says whether it is set). LDAP is declared with the mail
 * settings.
 */
import type { Ctx, FieldDef } from '../engine/types.ts'
import { addMessages, tr } from '../i18n.ts'
import type { SettingsCategory } from './declarations.ts'
import { imageField } from './images.ts'

const AUTH = { view: 'settings.change_auth', change: 'settings.change_auth' }
const SMS = { view: 'settings.change_sms', change: 'settings.change_sms' }

const bool = (name: string, label: string, def: boolean, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'boolean', label, default: def, required: false, ...extra })
const str = (name: string, label: string, def: string | null, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'string', label, default: def, max_length: 1024, required: false, allow_blank: true, ...extra })
const secret = (name: string, label: string, maxLength = 1024, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'string', label, default: '', max_length: maxLength, required: false, write_only: true, secret: true, encrypted: true, ...extra })
const choice = (name: string, label: string, def: string, choices: [string, string][], extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'choice', label, default: def, required: false, choices: choices.map(([value, l]) => ({ value, label: l })), ...extra })

/** A JSON object whose values are text (an attribute map): at most 64 entries of 256 characters. */
export function validTextMap(v: unknown, ctx: Ctx): string | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return tr(ctx.lang, 'Must be a JSON object.')
  const entries = Object.entries(v as Record<string, unknown>)
  if (entries.length > 64) return tr(ctx.lang, 'Ensure this field has no more than 64 entries.')
  for (const [k, x] of entries) {
    if (typeof x !== 'string' || k.length > 256 || x.length > 256) return tr(ctx.lang, 'Each value must be text of at most 256 characters.')
  }
  return undefined
}
const textMap = (name: string, label: string, def: Record<string, string>, extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'json', label, default: def, required: false, validate: validTextMap, ...extra })
const jsonObject = (name: string, label: string, def: Record<string, unknown>): FieldDef => ({
  name, type: 'json', label, default: def, required: false,
  validate: (v: unknown, ctx: Ctx) => (!v || typeof v !== 'object' || Array.isArray(v) ? tr(ctx.lang, 'Must be a JSON object.')
    : JSON.stringify(v).length > 16_384 ? tr(ctx.lang, 'Ensure this field has no more than 16384 characters.') : undefined),
})

export const AUTH_SWITCHES: SettingsCategory = {
  name: 'auth',
  title: 'Authentication',
  perms: AUTH,
  fields: [
    bool('AUTH_CAS', 'CAS Auth', false),
    bool('AUTH_OPENID', 'OPENID Auth', false),
    bool('AUTH_RADIUS', 'RADIUS Auth', false),
    bool('AUTH_DINGTALK', 'DingTalk Auth', false),
    bool('AUTH_FEISHU', 'FeiShu Auth', false),
    bool('AUTH_WECOM', 'WeCom Auth', false),
    bool('AUTH_SSO', 'SSO Auth', false),
    bool('AUTH_SAML2', 'SAML2 Auth', false),
    str('FORGOT_PASSWORD_URL', 'Forgot password url', ''),
    bool('LOGIN_REDIRECT_MSG_ENABLED', 'Enable login redirect msg', true),
    // JumpServer 3.2 reads it from its config file; here an administrator switches it (Profile → Temporary password)
    bool('AUTH_TEMP_TOKEN', 'Temporary password', false, { help_text: 'Users may make a one-time password, valid 5 minutes, for a terminal component\'s login.' }),
  ],
}

export const CAS: SettingsCategory = {
  name: 'cas',
  title: 'CAS',
  perms: AUTH,
  fields: [
    bool('AUTH_CAS', 'Enable CAS Auth', false),
    { name: 'CAS_SERVER_URL', type: 'url', label: 'Server url', max_length: 1024, required: false, default: 'https://example.com/cas/' },
    str('CAS_ROOT_PROXIED_AS', 'Proxy server url', 'https://example.com', { allow_null: true }),
    bool('CAS_LOGOUT_COMPLETELY', 'Logout completely', true),
    { name: 'CAS_VERSION', type: 'integer', label: 'Version', min_value: 1, max_value: 3, required: false, default: 3 },
    str('CAS_USERNAME_ATTRIBUTE', 'Username attr', 'uid', { allow_blank: false }),
    bool('CAS_APPLY_ATTRIBUTES_TO_USER', 'Enable attributes map', false),
    textMap('CAS_RENAME_ATTRIBUTES', 'Rename attr', { uid: 'username' }),
    bool('CAS_CREATE_USER', 'Create user if not', true),
  ],
}

/** Keys shared by the OIDC and Keycloak pages (JumpServer's CommonSettingSerializer). */
const OIDC_COMMON: FieldDef[] = [
  { name: 'BASE_SITE_URL', type: 'url', label: 'Base site url', max_length: 1024, required: false, allow_null: true, default: null,
    help_text: 'The address users reach this site at, used in the redirect URI (<base>/core/auth/openid/callback/); empty: the request\'s own address' },
  str('AUTH_OPENID_CLIENT_ID', 'Client Id', 'client-id', { allow_blank: false }),
  secret('AUTH_OPENID_CLIENT_SECRET', 'Client Secret'),
  choice('AUTH_OPENID_CLIENT_AUTH_METHOD', 'Client authentication method', 'client_secret_basic',
    [['client_secret_basic', 'Client Secret Basic'], ['client_secret_post', 'Client Secret Post']]),
  bool('AUTH_OPENID_SHARE_SESSION', 'Share session', true),
  bool('AUTH_OPENID_IGNORE_SSL_VERIFICATION', 'Ignore ssl verification', true),
  textMap('AUTH_OPENID_USER_ATTR_MAP', 'User attr map', { name: 'name', username: 'preferred_username', email: 'email' }, {
    required: true,
    help_text: 'User attr map present how to map OpenID user attr to jumpserver, username,name,email is jumpserver attr',
  }),
  bool('AUTH_OPENID_PKCE', 'Enable PKCE', false),
  choice('AUTH_OPENID_CODE_CHALLENGE_METHOD', 'Code challenge method', 'S256', [['S256', 'HS256'], ['plain', 'Plain']]),
]

const KEYCLOAK_FIELDS: FieldDef[] = [
  bool('AUTH_OPENID_KEYCLOAK', 'Use Keycloak', false),
  { name: 'AUTH_OPENID_SERVER_URL', type: 'url', label: 'Server url', max_length: 1024, required: false, default: 'https://keycloak.example.com' },
  str('AUTH_OPENID_REALM_NAME', 'Realm name', null, { allow_null: true }),
]

const endpoint = (name: string, label: string, def: string): FieldDef =>
  ({ name, type: 'url', label, max_length: 1024, required: false, allow_blank: true, default: def })

export const OIDC: SettingsCategory = {
  name: 'oidc',
  title: 'OIDC',
  perms: AUTH,
  fields: [
    bool('AUTH_OPENID', 'Enable OPENID Auth', false),
    ...OIDC_COMMON,
    ...KEYCLOAK_FIELDS,
    endpoint('AUTH_OPENID_PROVIDER_ENDPOINT', 'Provider endpoint', 'https://oidc.example.com/'),
    endpoint('AUTH_OPENID_PROVIDER_AUTHORIZATION_ENDPOINT', 'Provider auth endpoint', 'https://oidc.example.com/authorize'),
    endpoint('AUTH_OPENID_PROVIDER_TOKEN_ENDPOINT', 'Provider token endpoint', 'https://oidc.example.com/token'),
    endpoint('AUTH_OPENID_PROVIDER_JWKS_ENDPOINT', 'Provider jwks endpoint', 'https://oidc.example.com/jwks'),
    endpoint('AUTH_OPENID_PROVIDER_USERINFO_ENDPOINT', 'Provider userinfo endpoint', 'https://oidc.example.com/userinfo'),
    endpoint('AUTH_OPENID_PROVIDER_END_SESSION_ENDPOINT', 'Provider end session endpoint', 'https://oidc.example.com/logout'),
    str('AUTH_OPENID_PROVIDER_SIGNATURE_ALG', 'Provider sign alg', 'HS256'),
    str('AUTH_OPENID_PROVIDER_SIGNATURE_KEY', 'Provider sign key', null, { allow_null: true }),
    str('AUTH_OPENID_SCOPES', 'Scopes', 'openid profile email'),
    { name: 'AUTH_OPENID_ID_TOKEN_MAX_AGE', type: 'integer', label: 'Id token max age (s)', min_value: 1, max_value: 86_400, required: false, default: 60 },
    bool('AUTH_OPENID_ID_TOKEN_INCLUDE_CLAIMS', 'Id token include claims', true),
    bool('AUTH_OPENID_USE_STATE', 'Use state', true),
    bool('AUTH_OPENID_USE_NONCE', 'Use nonce', true),
    bool('AUTH_OPENID_ALWAYS_UPDATE_USER', 'Always update user', true),
  ],
}

export const KEYCLOAK: SettingsCategory = {
  name: 'keycloak',
  title: 'Keycloak',
  perms: AUTH,
  fields: [...KEYCLOAK_FIELDS, ...OIDC_COMMON],
}

export const OAUTH2: SettingsCategory = {
  name: 'oauth2',
  title: 'OAuth2',
  perms: AUTH,
  fields: [
    bool('AUTH_OAUTH2', 'Enable OAuth2 Auth', false),
    imageField('AUTH_OAUTH2_LOGO_PATH', 'Logo', '/static/img/logo.png'),
    str('AUTH_OAUTH2_PROVIDER', 'Service provider', 'OAuth2', { max_length: 16, allow_blank: false }),
    str('AUTH_OAUTH2_CLIENT_ID', 'Client Id', 'client-id', { allow_blank: false }),
    secret('AUTH_OAUTH2_CLIENT_SECRET', 'Client Secret'),
    str('AUTH_OAUTH2_SCOPE', 'Scope', ''),
    endpoint('AUTH_OAUTH2_PROVIDER_AUTHORIZATION_ENDPOINT', 'Provider auth endpoint', 'https://oauth2.example.com/authorize'),
    endpoint('AUTH_OAUTH2_ACCESS_TOKEN_ENDPOINT', 'Provider token endpoint', 'https://oauth2.example.com/access_token'),
    choice('AUTH_OAUTH2_ACCESS_TOKEN_METHOD', 'Client authentication method', 'GET', [['GET', 'GET'], ['POST', 'POST']]),
    endpoint('AUTH_OAUTH2_PROVIDER_USERINFO_ENDPOINT', 'Provider userinfo endpoint', 'https://oauth2.example.com/userinfo'),
    endpoint('AUTH_OAUTH2_PROVIDER_END_SESSION_ENDPOINT', 'Provider end session endpoint', 'https://oauth2.example.com/logout'),
    bool('AUTH_OAUTH2_LOGOUT_COMPLETELY', 'Logout completely', true),
    textMap('AUTH_OAUTH2_USER_ATTR_MAP', 'User attr map', { name: 'name', username: 'username', email: 'email' }),
    bool('AUTH_OAUTH2_ALWAYS_UPDATE_USER', 'Always update user', true),
  ],
}

const HOST = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$|^\[?[0-9a-fA-F:.]+\]?$/

/**
 * SAML2 IdP metadata as JumpServer needs it (python3-saml's `OneLogin_Saml2_IdPMetadataParser`): an XML document
 * whose root is an `EntityDescriptor` (any prefix) holding an `IDPSSODescriptor` with a `SingleSignOnService`
 * Location. Checked on the text (no XML parser is shipped): declarations and DOCTYPEs are refused (XXE).
 */
export function samlMetadataProblem(v: string, ctx: Ctx): string | undefined {
  if (!v) return undefined
  const text = v.trim().replace(/^<\?xml[^>]*\?>\s*/, '').replace(/^(?:<!--[\s\S]*?-->\s*)*/, '')
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return tr(ctx.lang, 'The IdP metadata must not declare a DOCTYPE or entities.')
  const root = /^<([A-Za-z_][\w.-]*:)?EntityDescriptor[\s>]/.exec(text)
  if (!root) return tr(ctx.lang, 'The IdP metadata must be an XML EntityDescriptor.')
  const p = root[1] ?? ''
  if (!new RegExp(`</${p.replace('.', '\\.')}EntityDescriptor>\\s*$`).test(text)) return tr(ctx.lang, 'The IdP metadata must be an XML EntityDescriptor.')
  if (!/<([\w.-]+:)?IDPSSODescriptor[\s>]/.test(text)) return tr(ctx.lang, 'The IdP metadata has no IDPSSODescriptor.')
  if (!/<([\w.-]+:)?SingleSignOnService\b[^>]*\bLocation\s*=\s*"https?:\/\/[^"]+"/.test(text)) return tr(ctx.lang, 'The IdP metadata has no SingleSignOnService location.')
  return undefined
}

addMessages({
  'The IdP metadata must not declare a DOCTYPE or entities.': ['IdP 元数据不能声明 DOCTYPE 或实体。', 'IdP メタデータで DOCTYPE やエンティティを宣言することはできません。'],
  'The IdP metadata must be an XML EntityDescriptor.': ['IdP 元数据必须是 XML EntityDescriptor。', 'IdP メタデータは XML の EntityDescriptor である必要があります。'],
  'The IdP metadata has no IDPSSODescriptor.': ['IdP 元数据中没有 IDPSSODescriptor。', 'IdP メタデータに IDPSSODescriptor がありません。'],
  'The IdP metadata has no SingleSignOnService location.': ['IdP 元数据中没有 SingleSignOnService 地址。', 'IdP メタデータに SingleSignOnService の Location がありません。'],
})

export const SAML2: SettingsCategory = {
  name: 'saml2',
  title: 'SAML2',
  perms: AUTH,
  fields: [
    bool('AUTH_SAML2', 'Enable SAML2 Auth', false),
    endpoint('SAML2_IDP_METADATA_URL', 'IDP metadata URL', ''),
    { name: 'SAML2_IDP_METADATA_XML', type: 'text', label: 'IDP metadata XML', required: false, allow_blank: true, max_length: 65_536, default: '', validate: samlMetadataProblem },
    jsonObject('SAML2_SP_ADVANCED_SETTINGS', 'SP advanced settings', {
      organization_info: { 'en-US': { name: 'JumpServer', displayname: 'JumpServer', url: 'https://jumpserver.org/' } },
      strict: true,
      security: {},
    }),
    secret('SAML2_SP_KEY_CONTENT', 'SP private key', 16_384, { type: 'text' }),
    secret('SAML2_SP_CERT_CONTENT', 'SP cert', 16_384, { type: 'text', encrypted: false }),
    textMap('SAML2_RENAME_ATTRIBUTES', 'Rename attr', { uid: 'username', email: 'email' }),
    bool('SAML2_LOGOUT_COMPLETELY', 'Logout completely', true),
    bool('AUTH_SAML2_ALWAYS_UPDATE_USER', 'Always update user', true),
  ],
}

export const RADIUS: SettingsCategory = {
  name: 'radius',
  title: 'Radius',
  perms: AUTH,
  fields: [
    bool('AUTH_RADIUS', 'Enable Radius Auth', false),
    str('RADIUS_SERVER', 'Host', 'localhost', { validate: (v: string, ctx: Ctx) => (v && !HOST.test(v) ? tr(ctx.lang, 'Enter a valid host name or IP address.') : undefined) }),
    { name: 'RADIUS_PORT', type: 'integer', label: 'Port', min_value: 1, max_value: 65_535, required: false, default: 1812 },
    secret('RADIUS_SECRET', 'Secret'),
    bool('OTP_IN_RADIUS', 'OTP in Radius', false),
  ],
}

export const SSO: SettingsCategory = {
  name: 'sso',
  title: 'SSO',
  perms: AUTH,
  fields: [
    bool('AUTH_SSO', 'Enable SSO auth', false, { help_text: 'Other service can using SSO token login to JumpServer without password' }),
    { name: 'AUTH_SSO_AUTHKEY_TTL', type: 'integer', label: 'SSO auth key TTL', help_text: 'Unit: second', min_value: 60, max_value: 1800, required: false, default: 900 },
  ],
}

/** SMS providers (JumpServer's BACKENDS); the codes go out through the server's SMS backend (server/auth/sms.ts). */
export const SMS_BACKENDS: [string, string][] = [['alibaba', 'Alibaba cloud'], ['tencent', 'Tencent cloud'], ['huawei', 'Huawei Cloud'], ['cmpp2', 'CMPP v2.0']]

export const SMS_SETTINGS: SettingsCategory = {
  name: 'sms',
  title: 'SMS',
  perms: SMS,
  fields: [
    bool('SMS_ENABLED', 'Enable SMS', false),
    choice('SMS_BACKEND', 'SMS provider / Protocol', 'alibaba', SMS_BACKENDS),
  ],
}

const testPhone: FieldDef = {
  name: 'SMS_TEST_PHONE', type: 'string', label: 'Test phone', max_length: 256, required: false, allow_blank: true, default: '',
  validate: (v: string, ctx: Ctx) => (v && !/^\+?[0-9][0-9 -]{4,30}$/.test(v) ? tr(ctx.lang, 'The mobile phone number format is incorrect') : undefined),
}
const signature = (prefix: string): FieldDef[] => [
  str(`${prefix}_VERIFY_SIGN_NAME`, 'Signature', '', { max_length: 256 }),
  str(`${prefix}_VERIFY_TEMPLATE_CODE`, 'Template code', '', { max_length: 256 }),
]

export const SMS_ALIBABA: SettingsCategory = {
  name: 'alibaba',
  title: 'Alibaba cloud',
  perms: SMS,
  fields: [
    testPhone,
    str('ALIBABA_ACCESS_KEY_ID', 'AccessKeyId', '', { max_length: 256 }),
    secret('ALIBABA_ACCESS_KEY_SECRET', 'access_key_secret', 256),
    ...signature('ALIBABA'),
  ],
}

export const SMS_TENCENT: SettingsCategory = {
  name: 'tencent',
  title: 'Tencent cloud',
  perms: SMS,
  fields: [
    testPhone,
    str('TENCENT_SECRET_ID', 'Secret id', '', { max_length: 256 }),
    secret('TENCENT_SECRET_KEY', 'Secret key', 256),
    str('TENCENT_SDKAPPID', 'SDK app id', '', { max_length: 256 }),
    ...signature('TENCENT'),
  ],
}

export const SMS_HUAWEI: SettingsCategory = {
  name: 'huawei',
  title: 'Huawei Cloud',
  perms: SMS,
  fields: [
    testPhone,
    str('HUAWEI_APP_KEY', 'App key', '', { max_length: 256 }),
    secret('HUAWEI_APP_SECRET', 'App secret', 256),
    str('HUAWEI_SMS_ENDPOINT', 'App Access Address', ''),
    str('HUAWEI_SIGN_CHANNEL_NUM', 'Signature channel number', ''),
    ...signature('HUAWEI'),
  ],
}

const CMPP2_TEMPLATE_HELP = 'Template need contain {code} and Signature + template length does not exceed 67 words. For example, your verification code is {code}, which is valid for 5 minutes. Please do not disclose it to others.'

export const SMS_CMPP2: SettingsCategory = {
  name: 'cmpp2',
  title: 'CMPP v2.0',
  perms: SMS,
  fields: [
    testPhone,
    str('CMPP2_HOST', 'Host', '', { max_length: 256 }),
    { name: 'CMPP2_PORT', type: 'integer', label: 'Port', min_value: 1, max_value: 65_535, required: false, default: 7890 },
    str('CMPP2_SP_ID', 'Enterprise code(SP id)', '', { max_length: 128 }),
    secret('CMPP2_SP_SECRET', 'Shared secret(Shared secret)', 256),
    str('CMPP2_SRC_ID', 'Original number(Src id)', '', { max_length: 256 }),
    str('CMPP2_SERVICE_ID', 'Business type(Service id)', '', { max_length: 256 }),
    str('CMPP2_VERIFY_SIGN_NAME', 'Signature', '', { max_length: 256 }),
    str('CMPP2_VERIFY_TEMPLATE_CODE', 'Template', '{code}', { max_length: 69, help_text: CMPP2_TEMPLATE_HELP }),
  ],
  clean(values, current) {
    const sign = String(values.CMPP2_VERIFY_SIGN_NAME ?? current.get('CMPP2_VERIFY_SIGN_NAME') ?? '')
    const template = String(values.CMPP2_VERIFY_TEMPLATE_CODE ?? current.get('CMPP2_VERIFY_TEMPLATE_CODE') ?? '')
    if (!('CMPP2_VERIFY_TEMPLATE_CODE' in values) && !('CMPP2_VERIFY_SIGN_NAME' in values)) return
    if (!template.includes('{code}')) return { CMPP2_VERIFY_TEMPLATE_CODE: ['The template needs to contain {code}'] }
    if ([...sign + template].length > 65) return { CMPP2_VERIFY_TEMPLATE_CODE: ['Signature + Template must not exceed 65 words'] }
    return undefined
  },
}

export const AUTH_CATEGORIES: SettingsCategory[] = [
  AUTH_SWITCHES, CAS, OIDC, KEYCLOAK, OAUTH2, SAML2, RADIUS, SSO, SMS_SETTINGS, SMS_ALIBABA, SMS_TENCENT, SMS_HUAWEI, SMS_CMPP2,
]
