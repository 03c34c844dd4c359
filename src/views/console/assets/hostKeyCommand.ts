/**
 * The asset detail's "Clear host key" command, in a module of its own: the asset lists load the connectivity
 * commands, and this one (with its icon and its API call) belongs to the detail page only (list-page budget).
 */
import { KeyMultipleRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { clearHostKeys } from '../../../api/terminal.ts'
import { notify } from '../../../ui/common/notify.tsx'
import type { ListCommand } from '../../../ui/list/types.ts'

/**
 * "Clear host key": forgets the SSH host keys the built-in terminal recorded for the asset (trust on first use), so
 * the next connection accepts and records the key the host offers now — after an administrator checked the change.
 */
export const clearHostKeyCommand: ListCommand = {
  id: 'clear-host-keys', scope: 'row', label: msg`Clear host key`, icon: KeyMultipleRegular, order: 32, perms: ['assets.change_asset'], danger: true,
  run: ({ row }, h) => {
    if (!row) return
    const name = h.rowName(row)
    h.confirm({
      title: t`Clear host key`,
      danger: true,
      confirmLabel: t`Clear`,
      body: t`Forget the SSH host key recorded for “${name}”? The next connection records the key the host offers then; do this only after checking why the key changed.`,
      onConfirm: async () => {
        if (await clearHostKeys(row.id)) notify('success', t`The recorded host key was cleared`)
        else notify('info', t`No host key was recorded for this asset`)
      },
    })
  },
}
