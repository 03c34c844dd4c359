/**
 * `/luna/share/<id>/`: a shared session. The invitee gives the verify code, then sees the session live (and types
 * into it when the share is writable). A refused code, a user not named by the share or an expired link answers
 * with the server's reason, and the code can be given again.
 */
import { Button, Field, Input, makeStyles, Text, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useCallback, useState } from 'react'
import type { LiveEvent } from '../api/liveSocket.ts'

const LiveScreen = lazy(() => import('../ui/terminal/LiveScreen.tsx').then((m) => ({ default: m.LiveScreen })))

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingHorizontalL, height: '100%', minHeight: 0, boxSizing: 'border-box' },
  form: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'end', flexWrap: 'wrap' },
})

export function JoinView({ shareId, scheme, fontSize }: { shareId: string; scheme: 'light' | 'dark'; fontSize: number }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [code, setCode] = useState('')
  const [joining, setJoining] = useState<string>()
  const [problem, setProblem] = useState<string>()
  const onEvent = useCallback((e: LiveEvent) => {
    // a refusal before the session was shown: back to the code
    if (e.type === 'error') {
      setProblem(e.message || t`The connection failed.`)
      setJoining(undefined)
    }
  }, [t])

  return (
    <div className={styles.root}>
      <Text as="h2" size={400} weight="semibold">{t`Join a shared session`}</Text>
      {!joining ? (
        <form className={styles.form} onSubmit={(e) => { e.preventDefault(); setProblem(undefined); setJoining(code.trim()) }}>
          <Field label={t`Verify code`} required validationMessage={problem} validationState={problem ? 'error' : 'none'}>
            <Input value={code} onChange={(_, d) => setCode(d.value)} autoFocus autoComplete="off" maxLength={16} />
          </Field>
          <Button appearance="primary" type="submit" disabled={!code.trim()}>{t`Join`}</Button>
        </form>
      ) : (
        <Suspense fallback={<div role="status">{t`Connecting…`}</div>}>
          <LiveScreen start={{ type: 'join', sharing: shareId, code: joining }} scheme={scheme} fontSize={fontSize} onEvent={onEvent} label={t`Shared session screen`} />
        </Suspense>
      )}
    </div>
  )
}
