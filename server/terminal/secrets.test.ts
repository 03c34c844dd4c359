/**
 * Issue 36, "every new surface": a password typed at an echo-off prompt in a terminal session is in no answer, no
 * command log and no recording. Driven as core.test.ts drives a session: a real sshd on loopback, the web terminal's
 * websocket. Two real echo-off prompts: `sudo` (it asks its password on the session's terminal with echo off —
 * the host user is not in sudoers, and sudo asks before it says so) and a shell prompt with `stty -echo` (what `read -s` does; the host user's shell is dash).
 */
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { TermClient, tokenFor, useTerminalFixture } from './test-support.ts'

describe('built-in terminal: what is typed at a password prompt stays secret', () => {
  const f = useTerminalFixture()

  it('a password typed at sudo\'s prompt and at a shell\'s echo-off prompt is masked in the command log and absent from the recording and every answer', async () => {
    const g = await f.grantedUser('sudouser')
    const w = new TermClient(f.address, g.c)
    await w.opened()
    w.send({ type: 'connect', token: await tokenFor(g), cols: 100, rows: 30 })
    await w.until(() => !!w.frame('session-info') || !!w.frame('error'), 'session-info')
    const id = (w.frame('session-info')!.session as { id: string }).id
    await w.until(() => /\$ $/.test(w.output), 'prompt')

    const SUDO_SECRET = 'Typed-At-Sudo-7431'
    const READ_SECRET = 'Typed-At-Read-9902'
    // sudo: a fresh authentication (-k), its own prompt on the terminal, echo off
    w.type('sudo -k true\r')
    await w.until(() => /\[sudo\] password for [^:]+: $/.test(w.output), 'sudo\'s password prompt')
    w.type(`${SUDO_SECRET}\r`)
    // (a wrong password: sudo asks again; the user gives up with ^C)
    await w.until(() => /Sorry, try again\.\s*\r?\n\[sudo\] password for [^:]+: $/.test(w.output), 'sudo asks again')
    w.type('\x03')
    await w.until(() => /\$ $/.test(w.output), 'prompt after sudo')
    // the shell's own echo-off prompt (the host user's shell is dash: `read -s` is bash's; stty does the same), echo off
    // before the prompt shows (else a key typed at once may be echoed before stty has run)
    w.type('stty -echo; printf "Secret: "; read v; stty echo; echo; echo got-${#v}\r')
    await w.until(() => w.output.endsWith('Secret: '), 'read\'s prompt')
    w.type(`${READ_SECRET}\r`)
    await w.until(() => w.output.includes(`got-${READ_SECRET.length}`), 'read took it')
    await w.until(() => /\$ $/.test(w.output), 'prompt after read')
    w.type('echo after-$((2+3))\r')
    await w.until(() => w.output.includes('after-5'), 'next command')
    // the terminal never showed them (echo off), so the user's screen had nothing to leak
    expect(w.output).not.toContain(SUDO_SECRET)
    expect(w.output).not.toContain(READ_SECRET)
    w.send({ type: 'close' })
    await w.until(() => w.closed !== null, 'closed')

    // the command log: the commands are there, the passwords are not
    const commands = await f.admin.get(`/api/v1/terminal/commands/?session=${id}&order=timestamp`)
    expect(commands.statusCode).toBe(200)
    const inputs = (commands.json() as Array<{ input: string }>).map((c) => c.input)
    expect(inputs).toEqual(expect.arrayContaining(['sudo -k true', 'echo after-$((2+3))']))
    expect(inputs.some((i) => i.startsWith('stty -echo; printf "Secret: "')), JSON.stringify(inputs)).toBe(true)
    const everyAnswer = [
      commands.body,
      (await f.admin.get(`/api/v1/terminal/commands/?search=${encodeURIComponent(SUDO_SECRET)}`)).body,
      (await f.admin.get(`/api/v1/terminal/sessions/${id}/`)).body,
      (await f.admin.get(`/api/v1/terminal/commands/?session=${id}&format=csv`)).body,
      (await g.c.get('/api/v1/terminal/my-sessions/')).body,
    ]
    for (const body of everyAnswer) {
      expect(body).not.toContain(SUDO_SECRET)
      expect(body).not.toContain(READ_SECRET)
    }
    // nothing found by searching for them either
    expect((await f.admin.get(`/api/v1/terminal/commands/?search=${encodeURIComponent(READ_SECRET)}`)).json()).toEqual([])

    // the recording: the prompts are in it, the passwords are not
    const info = (await f.admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json() as { src: string }
    const file = await f.admin.get(String(info.src))
    expect(file.statusCode).toBe(200)
    const cast = gunzipSync(file.rawPayload).toString('utf8')
    expect(cast).toContain('[sudo] password for')
    expect(cast).toContain('Secret: ')
    expect(cast).not.toContain(SUDO_SECRET)
    expect(cast).not.toContain(READ_SECRET)
  }, 120_000)
  it('a password typed with echo off that a reject rule matches is refused without being shown, logged or kept', async () => {
    const g = await f.grantedUser('echooff')
    const SECRET = 'Pass-ForbiddenWord-55'
    const group = await f.admin.post('/api/v1/acls/command-groups/', { name: 'no-forbidden-word', type: 'regex', content: 'ForbiddenWord' })
    expect(group.statusCode, group.body).toBe(201)
    const acl = await f.admin.post('/api/v1/acls/command-filter-acls/', {
      name: 'block the word', users: { username_group: ['echooff'] }, assets: {}, accounts: {}, command_groups: [group.json().id], action: 'reject', priority: 1,
    })
    expect(acl.statusCode, acl.body).toBe(201)
    try {
      const w = new TermClient(f.address, g.c)
      await w.opened()
      w.send({ type: 'connect', token: await tokenFor(g), cols: 100, rows: 30 })
      await w.until(() => !!w.frame('session-info') || !!w.frame('error'), 'session-info')
      const id = (w.frame('session-info')!.session as { id: string }).id
      await w.until(() => /\$ $/.test(w.output), 'prompt')
      w.type('stty -echo; printf "Secret: "; read v; stty echo; echo; echo got-${#v}\r')
      await w.until(() => w.output.endsWith('Secret: '), 'the echo-off prompt')
      w.type(`${SECRET}\r`)
      // still held to the rule (echo off is no way around a filter), refused without naming what was typed
      await w.until(() => !!w.frame('error'), 'refused')
      expect(w.frame('error')).toMatchObject({ code: 'command_rejected' })
      expect(w.output, JSON.stringify(w.output.slice(-400))).toContain('block the word')
      expect(w.output, JSON.stringify(w.output.slice(-400))).not.toContain(SECRET)
      // the line never reached the host: `read` still waits; ^C ends it
      expect(w.output).not.toMatch(/got-\d/)
      w.type('\x03')
      await w.until(() => /\$ $/.test(w.output), 'prompt after ^C')
      w.send({ type: 'close' })
      await w.until(() => w.closed !== null, 'closed')
      const commands = await f.admin.get(`/api/v1/terminal/commands/?session=${id}&order=timestamp`)
      expect(commands.body).not.toContain(SECRET)
      const inputs = (commands.json() as Array<{ input: string; risk_level: { value: number } }>)
      expect(inputs.find((c) => c.input === '******')?.risk_level.value).toBe(5)
      const info = (await f.admin.get(`/api/v1/terminal/sessions/${id}/replay/`)).json() as { src: string }
      expect(gunzipSync((await f.admin.get(String(info.src))).rawPayload).toString('utf8')).not.toContain(SECRET)
    } finally {
      await f.admin.delete(`/api/v1/acls/command-filter-acls/${acl.json().id}/`)
    }
  }, 120_000)
})
