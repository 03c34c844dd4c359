/**
 * Texts of the server's `error` and `close` frames. The server sends them translated in the user's language; these
 * stand in when a frame has no text, and for the client's own codes (`dropped`, `resume_expired`, `user`).
 */
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react'
import { useCallback } from 'react'
import type { TerminalProblem } from '../../machines/terminal/terminal.types.ts'

const BY_CODE: Record<string, MessageDescriptor> = {
  // the client's own
  dropped: msg`The connection was lost before the session opened.`,
  resume_expired: msg`Could not reconnect within 60 seconds: the session is over.`,
  user: msg`You closed the session.`,
  // the server's error codes
  permission_denied: msg`You have no permission to connect to this asset with this account.`,
  acl_rejected: msg`The login was refused by an access control rule.`,
  needs_approval: msg`The login needs an approval.`,
  host_key_changed: msg`The host key of the asset has changed: the connection was refused. An administrator must clear it on the asset's page.`,
  unreachable: msg`The asset could not be reached.`,
  auth_failed: msg`The asset refused the account's credentials.`,
  token_expired: msg`The connection token has expired or was already used.`,
  command_rejected: msg`The command was refused by a command filter.`,
  session_not_found: msg`The session is over.`,
  // the server's close reasons
  exit: msg`The session ended.`,
  terminated: msg`The session was terminated by an administrator.`,
  idle_timeout: msg`The session was closed after being idle too long.`,
  max_duration: msg`The session reached its maximum duration.`,
  permission_expired: msg`Your permission to this asset has expired.`,
  user_disabled: msg`Your account was disabled.`,
}

const FALLBACK = { error: msg`The connection failed.`, close: msg`The session ended.` }

export function useProblemText(): (kind: 'error' | 'close', problem: TerminalProblem) => string {
  const { i18n } = useLingui()
  return useCallback((kind, problem) => {
    if (problem.message) return problem.message
    return i18n._(BY_CODE[problem.code] ?? FALLBACK[kind])
  }, [i18n])
}
