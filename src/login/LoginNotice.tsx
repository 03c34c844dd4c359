import { Button, MessageBar, MessageBarActions, MessageBarBody } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import type { Notice } from './loginState.ts'

/** The alert above the form: the server's own (translated) message, or the page's text for the kind. */
export function LoginNotice({ notice }: { notice: Notice }) {
  const { t } = useLingui()
  const fallback: Record<Notice['kind'], string> = {
    server: t`Login failed, please try again`,
    failed: t`Login failed, please try again`,
    network: t`The server cannot be reached. Check your connection and try again.`,
    reload: t`This login page has expired. Please reload the page and try again.`,
    mfaFormat: t`MFA error, please check`,
    ssoFailed: t`Single sign-on failed. Please try again or log in with your password.`,
    ssoDenied: t`Your account may not log in through single sign-on here. Contact your administrator.`,
    ssoInactive: t`Your account is disabled or expired. Contact your administrator.`,
    ssoDisabled: t`This single sign-on method is not enabled.`,
  }
  const text = notice.text || fallback[notice.kind]
  return (
    <MessageBar intent="error" role="alert" aria-labelledby={undefined} layout="multiline">
      <MessageBarBody>{text}</MessageBarBody>
      {notice.kind === 'reload' && (
        <MessageBarActions>
          <Button size="small" onClick={() => window.location.reload()}>{t`Reload`}</Button>
        </MessageBarActions>
      )}
    </MessageBar>
  )
}
