/**
 * A platform protocol's `setting` is typed per protocol (issue 35: a JSON text area): OPTIONS serves each
 * protocol's keys as variants chosen by the row's `name`, writes are parsed against the row's variant (defaults
 * filled, unknown keys dropped, bad values answered at the key), and the stored values come back.
 */
import { describe, expect, it } from 'vitest'
import { dbKind } from '../../testing.ts'
import { useTestServer } from '../../use-test-server.ts'

const PLATFORMS = '/api/v1/assets/platforms/'

describe(`platform protocol settings (${dbKind()})`, () => {
  const s = useTestServer()

  it('describes each protocol\'s setting keys as variants of the row\'s name, translated', async () => {
    const post = (await s.admin.options(PLATFORMS)).json().actions.POST
    const setting = post.protocols.child.children.setting
    expect(setting).toMatchObject({ type: 'nested object', children_from: 'name' })
    expect(setting.variants.ssh).toEqual({
      sftp_enabled: expect.objectContaining({ type: 'boolean', label: 'SFTP enabled', default: true }),
      sftp_home: expect.objectContaining({ type: 'string', label: 'SFTP home', default: '/tmp' }),
    })
    expect(setting.variants.rdp.security).toMatchObject({ type: 'choice', default: 'any', choices: [{ value: 'any', label: 'Any' }, { value: 'rdp', label: 'RDP' }, { value: 'tls', label: 'TLS' }, { value: 'nla', label: 'NLA' }] })
    expect(setting.variants.vnc).toBeUndefined()
    const zh = (await s.admin.options(PLATFORMS, { 'accept-language': 'zh-hans' })).json().actions.POST
    expect(zh.protocols.child.children.setting.variants.ssh.sftp_enabled.label).toBe('启用 SFTP')
  })

  it('keeps a changed setting, fills defaults, drops unknown keys and answers a bad value at its key', async () => {
    const made = await s.admin.post(PLATFORMS, { name: 'SettingsLinux', category: 'host', type: 'linux' })
    expect(made.statusCode).toBe(201)
    const id = made.json().id as number
    expect(made.json().protocols.find((p: { name: string }) => p.name === 'ssh').setting).toEqual({ sftp_enabled: true, sftp_home: '/tmp' })
    const protocols = [
      { name: 'ssh', port: 22, primary: true, setting: { sftp_enabled: false, stray: 'x' } },
      { name: 'rdp', port: 3389, setting: { security: 'nla', console: true } },
      { name: 'vnc', port: 5900, setting: { anything: 1 } },
    ]
    const saved = await s.admin.patch(`${PLATFORMS}${id}/`, { protocols })
    expect(saved.statusCode).toBe(200)
    const back = (await s.admin.get(`${PLATFORMS}${id}/`)).json().protocols as Array<{ name: string; setting: unknown }>
    expect(Object.fromEntries(back.map((p) => [p.name, p.setting]))).toEqual({
      ssh: { sftp_enabled: false, sftp_home: '/tmp' },
      rdp: { console: true, security: 'nla', ad_domain: '' },
      vnc: {},
    })
    const bad = await s.admin.patch(`${PLATFORMS}${id}/`, { protocols: [
      { name: 'ssh', port: 22, setting: { sftp_enabled: 'maybe', sftp_home: 'relative/dir' } },
      { name: 'rdp', port: 3389, setting: { security: 'kerberos' } },
    ] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toEqual({ protocols: [
      { setting: { sftp_enabled: ['Must be a valid boolean.'], sftp_home: ['Enter an absolute path (starting with /).'] } },
      { setting: { security: ['"kerberos" is not a valid choice.'] } },
    ] })
    // nothing written
    expect(((await s.admin.get(`${PLATFORMS}${id}/`)).json().protocols as unknown[]).length).toBe(3)
  })
})
