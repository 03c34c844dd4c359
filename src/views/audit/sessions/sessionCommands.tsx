/** What the session pages share: the resource, a session's name, Terminate and Replay. */
import { DesktopPulseRegular, DismissCircleRegular, PlayRegular } from '@fluentui/react-icons'
import { msg, t } from '@lingui/core/macro'
import { Trans } from '@lingui/react/macro'
import type { Row } from '../../../api/resources.ts'
import { terminateSessions } from '../../../api/terminal.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { ACTIVE_TAB } from '../../../ui/detail/activeTab.ts'
import type { ListCommand } from '../../../ui/list/types.ts'
import { manifestItem } from '../../entries.ts'

export const sessionResource = () => manifestItem('sessions').resource
const TERMINATE_PERM = 'terminal.terminate_session'
export const MONITOR_PERM = 'terminal.monitor_session'

export const rowName = (row: Row) => `${String(row.user ?? '')} → ${String(row.asset ?? '')}`

/** Terminate: asks the session's component (through its task list) to end it. */
export const terminateCommand: ListCommand = {
  id: 'terminate', scope: 'row', label: msg`Terminate`, icon: DismissCircleRegular, order: 12, perms: [TERMINATE_PERM], danger: true,
  visible: (_env, { row }) => !!row && row.can_terminate === true,
  run: ({ row }, h) => {
    if (!row) return
    const name = h.rowName(row)
    h.confirm({
      title: t`Terminate session`,
      danger: true,
      confirmLabel: t`Terminate`,
      body: <Trans>Terminate the session “{name}”? The user sees a message on their screen; a session of the built-in terminal ends at once, one of an external component at its next heartbeat.</Trans>,
      onConfirm: async () => {
        const ok = await terminateSessions([row.id])
        if (ok.length) notify('success', t`The session is being terminated`)
        else notify('warning', t`The session has already ended`)
        h.reload()
      },
    })
  },
}

export const replayCommand: ListCommand = {
  id: 'replay', scope: 'row', label: msg`Replay`, icon: PlayRegular, order: 11, perms: ['terminal.view_sessionreplay'],
  visible: (_env, { row }) => !!row && row.can_replay === true,
  run: ({ row }, h) => {
    if (!row) return
    const detail = h.resource.routes.detail
    if (detail) h.go(detail.path.replace(':id', encodeURIComponent(String(row.id))), { [ACTIVE_TAB]: 'Replay' })
  },
}

/**
 * Monitor: the session detail on its live view (the Monitor tab: xterm, a lazy chunk loaded when the tab opens).
 * Offered while a built-in terminal process holds the session. The web terminal's `/luna/monitor/<id>/` shows the
 * same view (lina opens luna's monitor there).
 */
export const monitorCommand: ListCommand = {
  id: 'monitor', scope: 'row', label: msg`Monitor`, icon: DesktopPulseRegular, order: 10, perms: [MONITOR_PERM],
  visible: (_env, { row }) => !!row && row.can_join === true,
  run: ({ row }, h) => {
    if (!row) return
    const detail = h.resource.routes.detail
    if (detail) h.go(detail.path.replace(':id', encodeURIComponent(String(row.id))), { [ACTIVE_TAB]: 'Monitor' })
  },
}
