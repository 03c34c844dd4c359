/**
 * User actions beyond CRUD (contract §4.x, console-behaviour §2.11): remove from the current organization (one,
 * or many through spm), reset password (an email link), reset MFA, unblock login. `usersUrl` is the users list
 * URL the page works with (it may carry a fixed query).
 */
import { actionUrl, postWithSpm, sendAction, type RowId } from './resources.ts'

export async function removeUserFromOrg(usersUrl: string, id: RowId): Promise<void> {
  await sendAction('post', actionUrl(usersUrl, id, 'remove'))
}

export async function removeUsersFromOrg(usersUrl: string, ids: readonly RowId[]): Promise<void> {
  await postWithSpm(actionUrl(usersUrl, undefined, 'remove'), ids)
}

export async function resetUserPassword(usersUrl: string, id: RowId): Promise<void> {
  await sendAction('put', actionUrl(usersUrl, id, 'password/reset'))
}

export async function resetUserMfa(usersUrl: string, id: RowId): Promise<void> {
  await sendAction('put', actionUrl(usersUrl, id, 'mfa/reset'))
}

export async function unblockUser(usersUrl: string, id: RowId): Promise<void> {
  await sendAction('put', actionUrl(usersUrl, id, 'unblock'))
}
