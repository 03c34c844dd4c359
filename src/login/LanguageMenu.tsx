import type { ChangeEvent } from 'react'
import { Select } from '@fluentui/react-components'
import { LocalLanguageRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { LOCALES, switchLocale, type Locale } from '../app/i18n.ts'
import { useLoginStyles } from './loginStyles.ts'

/** Each language is named in itself (an endonym), so these names are not translated. */
const ENDONYMS: Record<Locale, string> = { zh: '中文', en: 'English', ja: '日本語' }
const HTML_LANG: Record<Locale, string> = { zh: 'zh-CN', en: 'en', ja: 'ja' }

const isLocale = (v: string | undefined): v is Locale => (LOCALES as readonly string[]).includes(v ?? '')

/**
 * The zh / en / ja switch: writes the language cookie and re-renders every string. A native select (through
 * Fluent's Select) rather than a Fluent Menu: the Menu brings positioning and tabster, about 40 kB gzip,
 * which the login page's budget cannot carry (docs/login.md).
 */
export function LanguageMenu() {
  const { t, i18n } = useLingui()
  const styles = useLoginStyles()
  const current: Locale = isLocale(i18n.locale) ? i18n.locale : 'en'

  const onChange = (e: ChangeEvent<HTMLSelectElement>) => {
    const picked = e.target.value
    if (isLocale(picked) && picked !== current) void switchLocale(picked)
  }

  return (
    <div className={styles.language}>
      <LocalLanguageRegular aria-hidden className={styles.languageIcon} />
      <Select appearance="filled-lighter" size="small" aria-label={t`Language`} value={current} onChange={onChange}>
        {LOCALES.map((l) => (
          <option key={l} value={l} lang={HTML_LANG[l]}>
            {ENDONYMS[l]}
          </option>
        ))}
      </Select>
    </div>
  )
}
