/**
 * The user's console preferences (Profile → Preferences, `lina` category of the preference API) applied to this
 * browser: language (the django_language cookie and the catalogue), theme mode, the view opened first, the time
 * zone sent as X-TZ. Applied when saved, and once after every start of a signed-in console (when the browser is
 * first idle), so they follow the user to a new login and a new browser.
 */
import { timeZoneChanged } from '../api/client.ts'
import { fetchPreferences, type Preferences } from '../api/profile.ts'
import { PREFERRED_TIME_ZONE_KEY } from '../api/timeZone.ts'
import { detectLocale, LOCALES, switchLocale, type Locale } from './i18n.ts'
import { LAST_VIEW_KEY } from './persist.ts'
import { readThemeMode, setThemeMode } from './themeMode.ts'

export async function applyConsolePreferences(values: Preferences): Promise<void> {
  const basic = values.basic ?? {}
  const lang = String(basic.lang ?? 'auto')
  if ((LOCALES as readonly string[]).includes(lang) && detectLocale() !== lang) await switchLocale(lang as Locale)
  const theme = String(basic.theme ?? 'system')
  if ((theme === 'light' || theme === 'dark' || theme === 'system') && readThemeMode() !== theme) setThemeMode(theme)
  const view = String(basic.default_view ?? 'auto')
  if (['console', 'audit', 'workbench'].includes(view)) localStorage.setItem(LAST_VIEW_KEY, view)
  const zone = String(basic.time_zone ?? '')
  const before = localStorage.getItem(PREFERRED_TIME_ZONE_KEY) ?? ''
  if (zone !== before) {
    if (zone) localStorage.setItem(PREFERRED_TIME_ZONE_KEY, zone)
    else localStorage.removeItem(PREFERRED_TIME_ZONE_KEY)
    timeZoneChanged()
  }
}

/** Reads the preferences and applies them; quiet (a failure leaves the browser's own choices). */
export async function syncConsolePreferences(): Promise<void> {
  try {
    await applyConsolePreferences(await fetchPreferences('lina'))
  } catch {
    // not applied: the browser's own choices stay
  }
}
