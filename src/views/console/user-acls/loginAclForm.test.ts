import { describe, expect, it } from 'vitest'
import { loginAclFormConfig } from './UserLoginAclFormPage.tsx'

const fieldsOf = (config: ReturnType<typeof loginAclFormConfig>) => {
  const layout = typeof config.layout === 'function' ? config.layout('create') : config.layout
  if (!Array.isArray(layout)) return []
  return (layout as ReadonlyArray<readonly [unknown, readonly string[]]>).flatMap((group) => [...group[1]])
}

describe('user login ACL form (issue 17, defect 7)', () => {
  it('asks for the user when opened from the standalone list', () => {
    expect(fieldsOf(loginAclFormConfig())).toContain('user')
  })
  it('keeps the user fixed when opened from a user', () => {
    const config = loginAclFormConfig('u-1')
    expect(fieldsOf(config)).not.toContain('user')
    expect(config.transform!({ name: 'x' }, {}, { user: 'u-1' })).toMatchObject({ user: 'u-1' })
  })
})
