import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { POSTGRES_SUITE } from './postgres-suite.ts'

describe('the PostgreSQL pass of npm test', () => {
  it('names existing server test files, each once and with a reason', () => {
    const files = POSTGRES_SUITE.map((t) => t.file)
    expect(files.filter((f) => !existsSync(f) || !/^server\/.*\.test\.ts$/.test(f)), 'entries that are not server test files').toEqual([])
    expect(new Set(files).size).toBe(files.length)
    expect(POSTGRES_SUITE.filter((t) => t.why.trim().length < 10).map((t) => t.file), 'entries without a reason').toEqual([])
  })
})
