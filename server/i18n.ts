import type { Lang } from './http/request-context.ts'

/**
 * Server-side message catalogue: English source text → zh / ja. Labels and messages are translated by the
 * request language (cookie `django_language`, then Accept-Language), as JumpServer does.
 * Modules add their own entries with `addMessages`.
 */
const catalog: Record<'zh' | 'ja', Map<string, string>> = { zh: new Map(), ja: new Map() }

/** Entries two modules translate differently (the later one silently won): a test keeps this empty. */
export const conflictingMessages: string[] = []

export function addMessages(entries: Record<string, [zh: string, ja: string]>): void {
  for (const [en, [zh, ja]] of Object.entries(entries)) {
    for (const [lang, text] of [['zh', zh], ['ja', ja]] as const) {
      const before = catalog[lang].get(en)
      if (before !== undefined && before !== text) conflictingMessages.push(`${lang} "${en}": "${before}" then "${text}"`)
    }
    catalog.zh.set(en, zh)
    catalog.ja.set(en, ja)
  }
}

/** Translates `text`, then replaces `{name}` placeholders. */
export function tr(lang: Lang, text: string, vars?: Record<string, string | number>): string {
  let out = lang === 'en' ? text : (catalog[lang].get(text) ?? text)
  if (vars) for (const [k, v] of Object.entries(vars)) out = out.replaceAll(`{${k}}`, String(v))
  return out
}

export function hasTranslation(lang: 'zh' | 'ja', text: string): boolean {
  return catalog[lang].has(text)
}

/** `django_language` cookie values: en, zh-hans, ja; Accept-Language as a fallback; default zh. */
export function parseLang(cookie: string | undefined, acceptLanguage: string | undefined): Lang {
  const pick = (v: string): Lang | undefined => {
    const s = v.trim().toLowerCase()
    if (s.startsWith('zh')) return 'zh'
    if (s.startsWith('ja')) return 'ja'
    if (s.startsWith('en')) return 'en'
    return undefined
  }
  if (cookie) {
    const l = pick(cookie)
    if (l) return l
  }
  if (acceptLanguage) {
    for (const part of acceptLanguage.split(',')) {
      const l = pick(part.split(';')[0] ?? '')
      if (l) return l
    }
  }
  return 'zh'
}

addMessages({
  'This field is required.': ['该字段是必填项。', 'この項目は必須です。'],
  'This field may not be blank.': ['该字段不能为空。', 'この項目は空にできません。'],
  'This field may not be null.': ['该字段不能为 null。', 'この項目は null にできません。'],
  'Ensure this field has no more than {n} characters.': ['确保该字段不超过 {n} 个字符。', 'この項目が {n} 文字を超えないようにしてください。'],
  'This field must be unique.': ['该字段必须唯一。', 'この項目は一意である必要があります。'],
  'Authentication credentials were not provided.': ['身份认证信息未提供。', '認証情報が提供されていません。'],
  'You do not have permission to perform this action.': ['您没有执行该操作的权限。', 'この操作を実行する権限がありません。'],
  'Not found.': ['未找到。', '見つかりません。'],
  'JSON parse error': ['JSON 解析错误', 'JSON 解析エラー'],
  'Request body is too large': ['请求体过大', 'リクエスト本文が大きすぎます'],
  'Unsupported media type': ['不支持的媒体类型', 'サポートされていないメディアタイプ'],
  'Unexpect error occur': ['发生意外错误', '予期しないエラーが発生しました'],
  'Invalid token.': ['无效的令牌。', '無効なトークンです。'],
  'CSRF Failed: CSRF token missing or incorrect.': ['CSRF 验证失败：CSRF 令牌缺失或不正确。', 'CSRF 検証に失敗しました: CSRF トークンがないか正しくありません。'],
})
