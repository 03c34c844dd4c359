import { i18n } from '@lingui/core'
import { afterEach, describe, expect, it } from 'vitest'
import { listQuery, objectQuery, singleObjectQuery } from './queries.ts'

describe('answer cache keys', () => {
  const before = i18n.locale
  afterEach(() => i18n.activate(before || 'en'))

  it('are per language: after a language switch, lists ask for their translated labels again (issue 17, defect 8)', () => {
    i18n.loadAndActivate({ locale: 'en', messages: {} })
    const en = [listQuery('/api/v1/users/users/', { limit: 15 }, 'o1').key, objectQuery('/api/v1/users/users/', 'u1', 'o1').key, singleObjectQuery('/api/v1/x/', 'o1').key]
    i18n.loadAndActivate({ locale: 'zh', messages: {} })
    const zh = [listQuery('/api/v1/users/users/', { limit: 15 }, 'o1').key, objectQuery('/api/v1/users/users/', 'u1', 'o1').key, singleObjectQuery('/api/v1/x/', 'o1').key]
    en.forEach((key, i) => expect(zh[i]).not.toBe(key))
    expect(listQuery('/api/v1/users/users/', { limit: 15 }, 'o1').key).toBe(zh[0])
  })
})
