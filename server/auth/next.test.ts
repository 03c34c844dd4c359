import { describe, expect, it } from 'vitest'
import { isSafeNext, safeNext } from './next.ts'

describe('safeNext', () => {
  it('keeps same-site paths', () => {
    for (const ok of ['/ui/', '/ui/console/assets/hosts?x=1#y', '/core/auth/login/', '/']) expect(safeNext(ok)).toBe(ok)
  })
  it('refuses other sites, schemes and browser-normalised tricks', () => {
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', 'ui/', '',
      '/\t/evil.example', '/\n/evil.example', '/ui/\\..\\', undefined, null, 42, ['/ui/'], '/'.padEnd(3000, 'a')]) {
      expect(isSafeNext(bad)).toBe(false)
      expect(safeNext(bad)).toBe('/ui/')
    }
  })
})
