/**
 * `GET /api/v1/settings/public/open/` (anyone) and `GET /api/v1/settings/public/` (logged-in users): the keys
 * of contract §4.1, from the settings table, the server config and the licence state.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { requireUser } from '../http/context.ts'
import type { Lang } from '../http/request-context.ts'
import { tr } from '../i18n.ts'
import { THEMES } from '../settings/declarations-interface.ts'
import { allSettings } from '../settings/store.ts'
import { OIDC_LOGIN_URL } from '../auth/oidc-urls.ts'
import { type LicenseState, requestLicense } from './license.ts'
import { STARTUP_MESSAGES } from './messages.ts'

function interfaceOf(settings: Map<string, unknown>, license: LicenseState, lang: Lang) {
  const theme = String(settings.get('INTERFACE_THEME') || 'classic_green')
  const title = settings.get('INTERFACE_LOGIN_TITLE')
  return {
    // The default product name is translated (as JumpServer's gettext default); a title the admin set is shown as set.
    login_title: title === STARTUP_MESSAGES.productName ? tr(lang, STARTUP_MESSAGES.productName) : title,
    logo_index: settings.get('INTERFACE_LOGO_INDEX'),
    logo_logout: settings.get('INTERFACE_LOGO_LOGOUT'),
    login_image: settings.get('INTERFACE_LOGIN_IMAGE'),
    favicon: settings.get('INTERFACE_FAVICON'),
    theme,
    theme_info: license.enabled ? { colors: (THEMES[theme] ?? THEMES.classic_green)?.colors } : {},
  }
}

const PASSWORD_RULE_KEYS = [
  'SECURITY_PASSWORD_MIN_LENGTH', 'SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH', 'SECURITY_PASSWORD_UPPER_CASE',
  'SECURITY_PASSWORD_LOWER_CASE', 'SECURITY_PASSWORD_NUMBER', 'SECURITY_PASSWORD_SPECIAL_CHAR',
]

/** Keys copied as they are from the settings. */
const PLAIN_KEYS = [
  'WINDOWS_SKIP_ALL_MANUAL_PASSWORD', 'OLD_PASSWORD_HISTORY_LIMIT_COUNT', 'TICKET_AUTHORIZE_DEFAULT_TIME',
  'TICKET_AUTHORIZE_DEFAULT_TIME_UNIT', 'AUTH_LDAP_SYNC_ORG_ID', 'SECURITY_MAX_IDLE_TIME', 'SECURITY_VIEW_AUTH_NEED_MFA',
  'SECURITY_MFA_VERIFY_TTL', 'SECURITY_COMMAND_EXECUTION', 'SECURITY_PASSWORD_EXPIRATION_TIME', 'SECURITY_LUNA_REMEMBER_AUTH',
  'SECURITY_WATERMARK_ENABLED', 'SECURITY_SESSION_SHARE', 'HELP_DOCUMENT_URL', 'HELP_SUPPORT_URL', 'AUTH_WECOM',
  'AUTH_DINGTALK', 'AUTH_FEISHU', 'AUTH_TEMP_TOKEN', 'TERMINAL_RAZOR_ENABLED', 'TERMINAL_MAGNUS_ENABLED',
  'TERMINAL_KOKO_SSH_ENABLED', 'TERMINAL_OMNIDB_ENABLED', 'TERMINAL_GRAPHICAL_RESOLUTION', 'ANNOUNCEMENT_ENABLED',
  'ANNOUNCEMENT', 'TICKETS_ENABLED',
] as const

export async function openSettings(req: FastifyRequest) {
  const [settings, license] = await Promise.all([allSettings(req.ctx.db), requestLicense(req)])
  return { XPACK_ENABLED: license.enabled, INTERFACE: interfaceOf(settings, license, req.ctx.lang), LOGIN_METHODS: loginMethods(settings) }
}

/**
 * The single sign-on buttons of the login page (ours: JumpServer renders its login page on the server): the
 * enabled back-ends the server can run, each with the URL that starts it.
 */
function loginMethods(settings: Map<string, unknown>): { name: string; title: string; url: string }[] {
  const out: { name: string; title: string; url: string }[] = []
  if (settings.get('AUTH_OPENID') === true) out.push({ name: 'openid', title: 'OpenID', url: OIDC_LOGIN_URL })
  return out
}

export async function fullSettings(req: FastifyRequest) {
  const [settings, license] = await Promise.all([allSettings(req.ctx.db), requestLicense(req)])
  const info = license.info
  return {
    XPACK_ENABLED: license.enabled,
    INTERFACE: interfaceOf(settings, license, req.ctx.lang),
    XPACK_LICENSE_IS_VALID: license.valid,
    XPACK_LICENSE_INFO: info
      ? { corporation: info.corporation, date_expired: info.date_expired, edition: info.edition, is_valid: license.valid }
      : { corporation: tr(req.ctx.lang, STARTUP_MESSAGES.communityLine) },
    PASSWORD_RULE: Object.fromEntries(PASSWORD_RULE_KEYS.map((k) => [k, settings.get(k)])),
    ...Object.fromEntries(PLAIN_KEYS.map((k) => [k, settings.get(k)])),
    SESSION_EXPIRE_AT_BROWSER_CLOSE: req.server.services.config.sessionExpireAtBrowserClose,
  }
}

export function registerPublicSettings(app: FastifyInstance): void {
  app.get('/api/v1/settings/public/open/', openSettings)
  app.get('/api/v1/settings/public/', async (req) => {
    requireUser(req)
    return fullSettings(req)
  })
}
