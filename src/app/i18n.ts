import { i18n, type Messages } from '@lingui/core'
import Cookies from 'js-cookie'

export type Locale = 'en' | 'zh' | 'ja'
export const LOCALES: readonly Locale[] = ['zh', 'en', 'ja']

/** Cookie values the server (Django) understands for each console locale. */
export const SERVER_LANGUAGE: Record<Locale, string> = { en: 'en', zh: 'zh-hans', ja: 'ja' }
export const LANGUAGE_COOKIE = 'django_language'

export type CatalogLoaders = Record<Locale, () => Promise<{ messages: Messages }>>

/** The console's catalogues. The login entry loads its own small ones instead (see `selectCatalogs`). */
let loaders: CatalogLoaders = {
  en: () => import('../../locales/en.ts'),
  zh: () => import('../../locales/zh.ts'),
  ja: () => import('../../locales/ja.ts'),
}

/** Chooses which compiled catalogues `activateLocale` loads (an entry with its own, smaller catalogue). */
export function selectCatalogs(next: CatalogLoaders): void {
  loaders = next
}

function pick(value: string | undefined | null): Locale | undefined {
  const v = (value ?? '').slice(0, 2).toLowerCase()
  return (LOCALES as readonly string[]).includes(v) ? (v as Locale) : undefined
}

/** Language: the `django_language` cookie, then the browser, then zh (spec 000 §1; console-behaviour §2.2). */
export function detectLocale(): Locale {
  return pick(Cookies.get(LANGUAGE_COOKIE)) ?? pick(typeof navigator === 'undefined' ? undefined : navigator.language) ?? 'zh'
}

/** Loads and activates a catalogue; missing messages fall back to the English source text. */
export async function activateLocale(locale: Locale): Promise<void> {
  const { messages } = await loaders[locale]()
  i18n.loadAndActivate({ locale, messages })
  if (typeof document !== 'undefined') document.documentElement.lang = locale === 'zh' ? 'zh-CN' : locale
}

/** Switches language and writes the cookie value the server uses, so server messages follow too. */
export async function switchLocale(locale: Locale): Promise<void> {
  Cookies.set(LANGUAGE_COOKIE, SERVER_LANGUAGE[locale], { path: '/', expires: 365, sameSite: 'lax' })
  await activateLocale(locale)
}

export { i18n }
