import { describe, expect, it } from 'vitest'
import { errorLines } from './rowErrors.ts'

const labels: Record<string, string> = { email: 'Email', username: 'Username', protocols: 'Protocols' }
const labelOf = (field: string) => labels[field] ?? field

describe('row errors', () => {
  it('labels field errors and flattens nested ones', () => {
    expect(errorLines({ email: ['Enter a valid email address.'], username: ['This field must be unique.', 'Too long.'] }, labelOf)).toEqual([
      'Email: Enter a valid email address.',
      'Username: This field must be unique. Too long.',
    ])
    expect(errorLines({ protocols: [{}, { port: ['Invalid port'] }] }, labelOf)).toEqual(['Protocols: port: Invalid port'])
  })

  it('keeps plain messages as they are', () => {
    expect(errorLines({ detail: 'You do not have permission to perform this action.', code: 'permission_denied' }, labelOf)).toEqual([
      'You do not have permission to perform this action.',
    ])
    expect(errorLines(['Account already exists'], labelOf)).toEqual(['Account already exists'])
    expect(errorLines({ non_field_errors: ['Bad pair'] }, labelOf)).toEqual(['Bad pair'])
    expect(errorLines('<html>', labelOf)).toEqual([])
    expect(errorLines(undefined, labelOf)).toEqual([])
  })
})
