import { request, silent } from './client.ts'

/**
 * Public settings (contract §4.1). Kept as the server's flat key → value object (route switches and pages read
 * keys by name), with the keys the shell relies on typed.
 */
export interface PublicSettings {
  XPACK_ENABLED?: boolean
  XPACK_LICENSE_IS_VALID?: boolean
  XPACK_LICENSE_INFO?: { corporation?: string }
  INTERFACE?: InterfaceSettings
  TICKETS_ENABLED?: boolean
  HELP_DOCUMENT_URL?: string
  HELP_SUPPORT_URL?: string
  SECURITY_PASSWORD_EXPIRATION_TIME?: number
  SECURITY_MFA_VERIFY_TTL?: number
  SECURITY_COMMAND_EXECUTION?: boolean
  AUTH_TEMP_TOKEN?: boolean
  PASSWORD_RULE?: PasswordRule
  [key: string]: unknown
}

export interface InterfaceSettings {
  login_title?: string
  logo_index?: string
  logo_logout?: string
  favicon?: string
  theme_info?: { colors?: Record<string, string> }
  [key: string]: unknown
}

export interface PasswordRule {
  SECURITY_PASSWORD_MIN_LENGTH?: number
  SECURITY_ADMIN_USER_PASSWORD_MIN_LENGTH?: number
  SECURITY_PASSWORD_UPPER_CASE?: boolean
  SECURITY_PASSWORD_LOWER_CASE?: boolean
  SECURITY_PASSWORD_NUMBER?: boolean
  SECURITY_PASSWORD_SPECIAL_CHAR?: boolean
}

export const OPEN_SETTINGS_URL = '/api/v1/settings/public/open/'
export const SETTINGS_URL = '/api/v1/settings/public/'

function parse(raw: unknown): PublicSettings {
  return raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as PublicSettings) : {}
}

/** Before login (no authentication): XPACK_ENABLED and INTERFACE. */
export async function fetchOpenSettings(signal?: AbortSignal): Promise<PublicSettings> {
  return parse(await request('get', OPEN_SETTINGS_URL, silent({ signal })))
}

/** The full public settings of a signed-in user. */
export async function fetchPublicSettings(signal?: AbortSignal): Promise<PublicSettings> {
  return parse(await request('get', SETTINGS_URL, { signal }))
}

/** `XPACK_LICENSE_IS_VALID`, counted only when XPACK is enabled (console-behaviour §1.4). */
export function hasValidLicense(settings: PublicSettings): boolean {
  return settings.XPACK_ENABLED === true && settings.XPACK_LICENSE_IS_VALID === true
}

/** The theme's primary colour (`INTERFACE.theme_info.colors['--color-primary']`), when the server sets one. */
export function primaryColor(settings: PublicSettings): string | undefined {
  const c = settings.INTERFACE?.theme_info?.colors?.['--color-primary']
  return typeof c === 'string' && /^#[0-9a-f]{6}$/i.test(c.trim()) ? c.trim() : undefined
}

/** One settings category (contract §4.18): `GET|PUT|PATCH|OPTIONS` of a flat object, no id. */
export const SETTINGS_CATEGORY_URL = '/api/v1/settings/setting/'

export function settingsCategoryUrl(category: string): string {
  return `${SETTINGS_CATEGORY_URL}?category=${encodeURIComponent(category)}`
}
