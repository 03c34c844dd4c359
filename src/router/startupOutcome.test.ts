import { describe, expect, it } from 'vitest'
import { startupOutcome } from './router.tsx'

const snap = (value: string, failure?: { kind: string }) =>
  ({ matches: (v: unknown) => v === value, context: { failure } }) as unknown as Parameters<typeof startupOutcome>[0]

describe('startupOutcome (issue 17: no StartupFailedError on the way to the login page)', () => {
  it('goes on when ready', () => expect(startupOutcome(snap('ready'))).toBe('ready'))
  it('waits, without an error, while the app leaves for the login page', () => {
    expect(startupOutcome(snap('loginRequired'))).toBe('leaving')
    expect(startupOutcome(snap('failed', { kind: 'no_session_mark' }))).toBe('leaving')
  })
  it('fails on real failures', () => {
    expect(startupOutcome(snap('failed', { kind: 'profile_failed' }))).toBe('failed')
    expect(startupOutcome(snap('failed', { kind: 'no_organizations' }))).toBe('failed')
  })
})
