import { describe, expect, it } from 'vitest'
import { againProblem } from './ProfileImprovementPage.tsx'

describe('first login: "New password again" (issue 17, defect 10)', () => {
  it('marks an empty box, also when the new password is empty too', () => {
    expect(againProblem('', '')).toBe('required')
    expect(againProblem('Secret-1', '')).toBe('required')
  })
  it('marks a mismatch and accepts the same password', () => {
    expect(againProblem('Secret-1', 'Secret-2')).toBe('mismatch')
    expect(againProblem('Secret-1', 'Secret-1')).toBeUndefined()
  })
})
