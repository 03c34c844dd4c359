import { describe, expect, it } from 'vitest'
import { hasTranslation, tr } from '../i18n.ts'
import { STARTUP_MESSAGES } from '../startup/messages.ts'
import { AUTH_MESSAGES } from './messages.ts'

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('server messages of auth/ and startup/', () => {
  const all = [...Object.values(AUTH_MESSAGES), ...Object.values(STARTUP_MESSAGES)]
  it.each(['zh', 'ja'] as const)('are translated to %s with the same placeholders', (lang) => {
    for (const text of all) {
      expect(hasTranslation(lang, text), text).toBe(true)
      expect(placeholders(tr(lang, text)), text).toEqual(placeholders(text))
    }
  })
})
