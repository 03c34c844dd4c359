import { describe, expect, it } from 'vitest'
import { tr } from '../i18n.ts'
import { TERMINAL_MESSAGES } from './messages.ts'

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('the built-in terminal\'s messages', () => {
  it.each(['zh', 'ja'] as const)('are translated to %s with the same placeholders', (lang) => {
    for (const text of Object.keys(TERMINAL_MESSAGES)) {
      expect(tr(lang, text), text).not.toBe(text)
      expect(placeholders(tr(lang, text)), text).toEqual(placeholders(text))
    }
  })
})
