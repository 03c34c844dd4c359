/**
 * A real sshd on loopback for a spec (server/testing/sshd.ts), with one OS user, and hosts on it granted to new users:
 * what the terminal, live-session and file-manager specs each set up.
 */
import type { APIRequestContext } from '@playwright/test'
import { startSshd, type Sshd, type SshdUser } from '../../../server/testing/sshd.ts'
import { adminToken, test } from '../fixtures.ts'
import type { Api } from '../generic-support.ts'
import { createUser, finishFirstLogin, PASSWORD, ROLES } from '../shell-helpers.ts'

export interface LoopbackHost {
  /** the sshd's OS user, the hosts' account */
  readonly account: SshdUser
  /** A host on the sshd with the OS user as its account, granted to a new ordinary user with these actions. */
  granted(a: Api, request: APIRequestContext, tag: string, actions: string[]): Promise<{ hostName: string; hostId: string; username: string }>
}

/** Starts the sshd before the spec's tests and stops it after them. */
export function useLoopbackHost(): LoopbackHost {
  let sshd: Sshd | undefined
  let account: SshdUser | undefined
  test.beforeAll(async () => {
    sshd = await startSshd()
    account = await sshd.addUser()
  })
  test.afterAll(async () => {
    await sshd?.stop()
  })
  return {
    get account() {
      if (!account) throw new Error('the sshd is not started yet')
      return account
    },
    async granted(a, request, tag, actions) {
      const user = this.account
      const hostName = `${tag}-host`
      const host = await a.post('/api/v1/assets/hosts/', { name: hostName, address: '127.0.0.1', platform: 1, protocols: [{ name: 'ssh', port: sshd!.port }] }) as { id: string }
      await a.post('/api/v1/accounts/accounts/', { asset: host.id, name: user.username, username: user.username, secret_type: 'password', secret: user.password })
      const username = `${tag}-user`
      const userId = await createUser(request, await adminToken(request), username, [ROLES.OrgUser])
      await finishFirstLogin(request, username, PASSWORD)
      await a.post('/api/v1/perms/asset-permissions/', { name: `${tag}-perm`, users: [userId], assets: [host.id], accounts: ['@ALL'], actions })
      return { hostName, hostId: host.id, username }
    },
  }
}
