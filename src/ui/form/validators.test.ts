import { beforeAll, describe, expect, it } from 'vitest'
import { activateEnglish } from '../common/testing.ts'
import { alphanumericUnderscore, email, hasEmoji, ipOrUrl, json, lengthRule, noEmoji, rangeRule, required, runRules, usernameMappingJson } from './validators.ts'

beforeAll(() => activateEnglish())
const ok = (v: string | undefined) => expect(v).toBeUndefined()
const bad = (v: string | undefined) => expect(v).toEqual(expect.any(String))

describe('validators', () => {
  it('required: blank strings, empty lists, null', () => {
    for (const v of [undefined, null, '', '   ', []]) bad(required(v, {}))
    for (const v of ['x', 0, false, ['a'], {}]) ok(required(v, {}))
  })
  it('email', () => {
    ok(email('a@b.io', {}))
    ok(email('', {}))
    bad(email('a@b', {}))
    bad(email('not an email', {}))
  })
  it('IP/URL: letters, digits and : / . ? = & # _ - after trimming', () => {
    ok(ipOrUrl(' 10.0.0.1 ', {}))
    ok(ipOrUrl('https://host:8080/a?b=c&d#e_f-g', {}))
    bad(ipOrUrl('http://a b', {}))
    bad(ipOrUrl('host;rm', {}))
  })
  it('no emoji: detects emoji the reference missed and allows "["', () => {
    for (const text of ['rocket 🚀', '😀', 'flag 🇨🇳', 'keycap 1️⃣', '❤️', '👍🏽']) expect(hasEmoji(text), text).toBe(true)
    for (const text of ['[prod] web-01', 'a]b', '中文名称', 'naïve café', 'x+y=z {}']) expect(hasEmoji(text), text).toBe(false)
    bad(noEmoji('web 🚀', {}))
    ok(noEmoji('[prod]', {}))
  })
  it('alphanumeric and underscore only', () => {
    ok(alphanumericUnderscore('abc_123', {}))
    bad(alphanumericUnderscore('abc-123', {}))
    bad(alphanumericUnderscore('a b', {}))
  })
  it('JSON must parse', () => {
    ok(json('{"a": 1}', {}))
    ok(json('', {}))
    ok(json({ a: 1 }, {}))
    bad(json('{a: 1}', {}))
  })
  it('username mapping needs a username KEY, not value', () => {
    ok(usernameMappingJson('{"username": "uid", "name": "cn"}', {}))
    bad(usernameMappingJson('{"uid": "username"}', {}))
    bad(usernameMappingJson('["username"]', {}))
    bad(usernameMappingJson('{bad', {}))
    ok(usernameMappingJson({ username: 'sAMAccountName' }, {}))
  })
  it('length and range', () => {
    bad(lengthRule(undefined, 3)('abcd', {}))
    ok(lengthRule(undefined, 3)('abc', {}))
    bad(rangeRule(1, 65535)(0, {}))
    bad(rangeRule(1, 65535)('x', {}))
    ok(rangeRule(1, 65535)('22', {}))
  })
  it('runRules returns the first message', () => {
    expect(runRules([required, email], '', {})).toBe('This field is required')
    expect(runRules([required, email], 'x', {})).toBe('Enter a valid email address')
    ok(runRules([required, email], 'a@b.io', {}))
  })
})
