import { Button } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { StatusPage } from './StatusPage.tsx'

/** Something failed while opening a page (a chunk that did not load, an unexpected error). */
export function ErrorPage({ message, onRetry }: { message?: string; onRetry: () => void }) {
  const { t } = useLingui()
  return (
    <StatusPage title={t`Something went wrong`} actions={<Button appearance="primary" onClick={onRetry}>{t`Try again`}</Button>}>
      {message || t`The page could not be shown.`}
    </StatusPage>
  )
}
