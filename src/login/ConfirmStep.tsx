import { Button, Spinner } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import type { LoginFlow } from './useLoginFlow.ts'
import { useLoginStyles } from './loginStyles.ts'

/** A login held by a login ACL with review: who must approve, a live status, and a way out. */
export function ConfirmStep({ flow }: { flow: LoginFlow }) {
  const { t } = useLingui()
  const styles = useLoginStyles()
  const reviewers = flow.state.reviewers.join(', ')
  return (
    <>
      <p className={styles.hint} role="status">
        {reviewers ? t`Your login needs approval by: ${reviewers}. This page goes on by itself once they approve.` : t`Your login needs a reviewer's approval. This page goes on by itself once it is approved.`}
      </p>
      <Spinner size="small" label={t`Waiting for approval…`} />
      <div className={styles.actions}>
        <Button appearance="secondary" onClick={() => void flow.cancel()}>{t`Cancel`}</Button>
      </div>
    </>
  )
}
