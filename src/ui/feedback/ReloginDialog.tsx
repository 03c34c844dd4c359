import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useSyncExternalStore } from 'react'
import { closeRelogin, isReloginAsked, subscribeRelogin } from './feedback.ts'

/** Spec 000 §8, 401: "your session has expired, please log in again", with a button to the login page. */
export function ReloginDialog({ loginHref }: { loginHref: () => string }) {
  const { t } = useLingui()
  const open = useSyncExternalStore(subscribeRelogin, isReloginAsked, isReloginAsked)
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, d) => !d.open && closeRelogin()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t`Please log in again`}</DialogTitle>
          <DialogContent>{t`Your session has expired, please log in again.`}</DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={closeRelogin}>{t`Cancel`}</Button>
            <Button appearance="primary" onClick={() => window.location.assign(loginHref())}>{t`Log in again`}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  )
}
