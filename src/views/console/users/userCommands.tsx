/**
 * The user-specific commands (list rows, bulk and detail): remove from the organization (POST …/remove/) and
 * delete (DELETE, system administrators only) with clearly different confirmations; reset password, reset MFA
 * and unblock on the detail page.
 */
import { msg, t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import { KeyResetRegular, LockOpenRegular, PersonDeleteRegular, ShieldDismissRegular } from '@fluentui/react-icons'
import { bulkDelete, deleteResource, type Row, type RowId } from '../../../api/resources.ts'
import { removeUserFromOrg, removeUsersFromOrg, resetUserMfa, resetUserPassword, unblockUser } from '../../../api/users.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { namesOf } from '../../../ui/list/defaultCommands.tsx'
import type { CommandHelpers, ListCommand } from '../../../ui/list/types.ts'
import { REMOVE_USER_PERM } from './resource.ts'

const done = (h: CommandHelpers) => (h.afterDelete ? h.afterDelete() : h.reload())

/** Overrides of the default commands: deleting a user is for system administrators, and says what it means. */
export const userCommandOverrides: Record<string, Partial<ListCommand>> = {
  delete: {
    label: msg`Delete user`,
    visible: (env) => env.access.isSystemAdmin,
    run: ({ row }, h) => {
      if (!row) return
      const name = h.rowName(row)
      h.confirm({
        title: t`Delete user`,
        danger: true,
        confirmLabel: t`Delete user`,
        body: <Trans>Delete the account “{name}” from the whole system? It is removed from every organization and cannot be restored. To take the user out of this organization only, use Remove from organization.</Trans>,
        onConfirm: async () => {
          await deleteResource(h.url, row.id)
          notify('success', t`Deleted user “${name}”`)
          done(h)
        },
      })
    },
  },
  bulkDelete: {
    label: msg`Delete selected users`,
    visible: (env) => env.access.isSystemAdmin,
    run: ({ selection }, h) => h.confirm({
      title: t`Delete ${selection.length} users`,
      danger: true,
      confirmLabel: t`Delete users`,
      body: <Trans>Delete these {selection.length} accounts from the whole system? They are removed from every organization and cannot be restored: {namesOf(selection, h.rowName)}</Trans>,
      onConfirm: async () => {
        await bulkDelete(h.url, selection.map((r) => r.id))
        notify('success', t`Deleted ${selection.length} users`)
        h.list?.clearSelection()
        h.reload()
      },
    }),
  },
}

export const removeFromOrg: ListCommand = {
  id: 'remove', scope: 'row', label: msg`Remove from organization`, icon: PersonDeleteRegular, order: 15, perms: [REMOVE_USER_PERM], hiddenInRoot: true, danger: true,
  run: ({ row }, h) => {
    if (!row) return
    const name = h.rowName(row)
    h.confirm({
      title: t`Remove from organization`,
      confirmLabel: t`Remove`,
      body: <Trans>Remove “{name}” from the current organization? The account itself stays, with its other organizations; only its membership and roles here are removed.</Trans>,
      onConfirm: async () => {
        await removeUserFromOrg(h.url, row.id)
        notify('success', t`Removed “${name}” from the organization`)
        done(h)
      },
    })
  },
}

export const bulkRemoveFromOrg: ListCommand = {
  id: 'bulkRemove', scope: 'bulk', label: msg`Remove selected from organization`, icon: PersonDeleteRegular, order: 25, perms: [REMOVE_USER_PERM], hiddenInRoot: true,
  run: ({ selection }, h) => h.confirm({
    title: t`Remove ${selection.length} users from the organization`,
    confirmLabel: t`Remove`,
    body: <Trans>Remove these {selection.length} users from the current organization? Their accounts stay: {namesOf(selection, h.rowName)}</Trans>,
    onConfirm: async () => {
      await removeUsersFromOrg(h.url, selection.map((r) => r.id))
      notify('success', t`Removed ${selection.length} users from the organization`)
      h.list?.clearSelection()
      h.reload()
    },
  }),
}

function putAction(id: string, label: ReturnType<typeof msg>, icon: ListCommand['icon'], order: number, send: (usersUrl: string, id: RowId) => Promise<void>, texts: { title: () => string; body: (name: string) => string; done: (name: string) => string }, enabled?: (row: Row) => boolean): ListCommand {
  return {
    id, scope: 'row', label, icon, order, perms: ['@change'],
    enabled: (_env, { row }) => (row && enabled ? enabled(row) : true),
    run: ({ row }, h) => {
      if (!row) return
      const name = h.rowName(row)
      h.confirm({
        title: texts.title(),
        body: texts.body(name),
        onConfirm: async () => {
          await send(h.url, row.id)
          notify('success', texts.done(name))
          h.reload()
        },
      })
    },
  }
}

/** Detail-page actions. */
export const userDetailCommands: ListCommand[] = [
  removeFromOrg,
  putAction('resetPassword', msg`Reset password`, KeyResetRegular, 40, resetUserPassword, {
    title: () => t`Reset password`,
    body: (name) => t`Send “${name}” an email with a link to set a new password?`,
    done: (name) => t`A password reset link was sent to “${name}”`,
  }),
  putAction('resetMfa', msg`Reset MFA`, ShieldDismissRegular, 50, resetUserMfa, {
    title: () => t`Reset MFA`,
    body: (name) => t`Unbind the MFA device of “${name}”? They will have to bind a new one at next login.`,
    done: (name) => t`MFA of “${name}” was reset`,
  }, (row) => row.is_otp_secret_key_bound === true || row.mfa_enabled === true),
  putAction('unblock', msg`Unblock login`, LockOpenRegular, 60, unblockUser, {
    title: () => t`Unblock login`,
    body: (name) => t`Allow “${name}” to log in again after too many failed attempts?`,
    done: (name) => t`“${name}” can log in again`,
  }, (row) => row.login_blocked === true),
]
