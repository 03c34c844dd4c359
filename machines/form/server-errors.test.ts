import { describe, expect, it } from 'vitest'
import { flattenBulkErrors, flattenServerErrors, formErrorsOf } from './server-errors.ts'

describe('flattenServerErrors', () => {
  it('puts field lists on their fields and non_field_errors at the top', () => {
    expect(flattenServerErrors({ name: ['This field is required.'], email: ['Enter a valid email address.', 'Too long.'], non_field_errors: ['Bad pair'] })).toEqual({
      fields: { name: 'This field is required.', email: 'Enter a valid email address. Too long.' },
      top: ['Bad pair'],
    })
  })
  it('flattens nested many errors with their paths', () => {
    expect(flattenServerErrors({ protocols: [{}, { port: ['Ensure this value is less than or equal to 65535.'] }] }).fields).toEqual({
      protocols: 'protocols[1].port: Ensure this value is less than or equal to 65535.',
    })
    expect(flattenServerErrors({ rules: { ip_group: ['Invalid IP'], time_period: ['Bad'] } }).fields).toEqual({
      rules: 'rules.ip_group: Invalid IP; rules.time_period: Bad',
    })
  })
  it('reads a dict error repeating the field name as a plain message', () => {
    expect(flattenServerErrors({ protocols: { protocols: 'Protocol is required: ssh' } }).fields).toEqual({ protocols: 'Protocol is required: ssh' })
  })
  it('bare arrays, strings and detail go to the top; plain-string values stay on their field', () => {
    expect(flattenServerErrors(['Account already exists'])).toEqual({ fields: {}, top: ['Account already exists'] })
    expect(flattenServerErrors({ detail: 'Nope', code: 'x' })).toEqual({ fields: {}, top: ['Nope'] })
    expect(flattenServerErrors({ error: 'Broken', role: 'Has bound this role' })).toEqual({ fields: { role: 'Has bound this role' }, top: ['Broken'] })
    expect(flattenServerErrors('<html>')).toEqual({ fields: {}, top: [] })
    expect(flattenServerErrors(undefined)).toEqual({ fields: {}, top: [] })
  })
})

describe('flattenBulkErrors', () => {
  it('joins the items messages per field with "; "', () => {
    const names = ['alice', 'bob', 'carol']
    expect(flattenBulkErrors([{ email: ['Invalid.'] }, {}, { email: ['Taken.'], non_field_errors: ['Odd'] }], (i) => names[i]!)).toEqual({
      fields: { email: 'alice: Invalid.; carol: Taken.' },
      top: ['carol: Odd'],
    })
  })
})

describe('errors inside the rows of a list of nested objects', () => {
  const data = { protocols: [{}, { setting: { sftp_home: ['Enter an absolute path (starting with /).'] } }], accounts: [{ username: ['Required.'] }, {}, { non_field_errors: ['Bad row'] }] }
  it('keeps each message by its row and path', () => {
    expect(flattenServerErrors(data).rows).toEqual({
      'protocols.1.setting.sftp_home': 'Enter an absolute path (starting with /).',
      'accounts.0.username': 'Required.',
      'accounts.2.non_field_errors': 'Bad row',
    })
  })
  it('lands on the rows of a form that renders the list as rows, else on the field as text', () => {
    const rows = formErrorsOf({ data, message: 'x' }, { order: ['protocols', 'accounts'], nested: {}, labels: {}, lists: ['protocols', 'accounts'] })
    expect(rows.errors).toEqual({
      'protocols.1.setting.sftp_home': 'Enter an absolute path (starting with /).',
      'accounts.0.username': 'Required.',
      'accounts.2.non_field_errors': 'Bad row',
    })
    const text = formErrorsOf({ data: { protocols: data.protocols }, message: 'x' }, { order: ['protocols'], nested: {}, labels: {} })
    expect(text.errors).toEqual({ protocols: 'protocols[1].setting.sftp_home: Enter an absolute path (starting with /).' })
  })
})
