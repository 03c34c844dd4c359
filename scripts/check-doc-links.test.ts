import { describe, expect, it } from 'vitest'
import { anchorOf, brokenLinks } from './check-doc-links.ts'

describe('documentation links', () => {
  it('every relative link of README.md and docs/ names an existing file and heading', () => {
    expect(brokenLinks()).toEqual([])
  })

  it('reads headings as GitHub anchors them', () => {
    expect(anchorOf('Tests and figures')).toBe('tests-and-figures')
    expect(anchorOf('Benchmarks (not tests)')).toBe('benchmarks-not-tests')
    expect(anchorOf('`npm test` — the whole run')).toBe('npm-test--the-whole-run')
  })
})
