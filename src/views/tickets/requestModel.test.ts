import { describe, expect, it } from 'vitest'
import { defaultExpiry, fromLocalInput, toLocalInput } from './requestModel.ts'

describe('asset request model', () => {
  it('defaults the expiry from the ticket settings (days or hours; bad values: 7 days)', () => {
    const from = new Date('2030-01-01T00:00:00Z')
    expect(defaultExpiry(from, 3, 'day').toISOString()).toBe('2030-01-04T00:00:00.000Z')
    expect(defaultExpiry(from, 5, 'hour').toISOString()).toBe('2030-01-01T05:00:00.000Z')
    expect(defaultExpiry(from, 'x', 'day').toISOString()).toBe('2030-01-08T00:00:00.000Z')
  })
  it('round-trips datetime-local values', () => {
    const local = toLocalInput('2030-05-06T07:08:00.000Z')
    expect(local).toMatch(/^2030-05-0\dT\d\d:08$/)
    expect(fromLocalInput(local)).toBe('2030-05-06T07:08:00.000Z')
    expect(fromLocalInput('')).toBeUndefined()
    expect(toLocalInput('nonsense')).toBe('')
  })
})
