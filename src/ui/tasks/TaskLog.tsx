/**
 * A task execution's log, live: what was written so far, then each new line as the server writes it, with the
 * execution's state (docs/tasks.md). Generic: any task of any module uses it through the task log routes.
 */
import { Badge, MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useRef, useState } from 'react'
import { followTaskLog, type TaskState } from '../../api/tasks.ts'
import { describeError } from '../common/errors.ts'

const useStyles = makeStyles({
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, marginBottom: tokens.spacingVerticalS },
  log: {
    margin: 0,
    minHeight: '50vh',
    maxHeight: '75vh',
    overflow: 'auto',
    padding: tokens.spacingHorizontalM,
    backgroundColor: '#1f1b1b',
    color: '#f0f0f0',
    fontFamily: 'Monaco, Consolas, "Lucida Console", monospace',
    fontSize: tokens.fontSizeBase200,
    lineHeight: 1.5,
    whiteSpace: 'pre-wrap',
    wordBreak: 'break-word',
    borderRadius: tokens.borderRadiusMedium,
    ':focus-visible': { outlineStyle: 'solid', outlineWidth: tokens.strokeWidthThick, outlineColor: tokens.colorStrokeFocus2 },
  },
})

type Phase = 'connecting' | 'following' | 'ended' | 'missing'

export function TaskStateBadge({ state }: { state: TaskState | null }) {
  const { t } = useLingui()
  switch (state) {
    case 'SUCCESS': return <Badge appearance="filled" color="success">{t`Success`}</Badge>
    case 'FAILURE': return <Badge appearance="filled" color="danger">{t`Failure`}</Badge>
    case 'RUNNING': return <Badge appearance="filled" color="brand">{t`Running`}</Badge>
    case 'PENDING': return <Badge appearance="outline" color="informative">{t`Pending`}</Badge>
    default: return null
  }
}

export function TaskLog({ executionId, type = 'celery' }: { executionId: string; type?: 'celery' | 'ansible' }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [text, setText] = useState('')
  const [state, setState] = useState<TaskState | null>(null)
  const [phase, setPhase] = useState<Phase>('connecting')
  const [error, setError] = useState<unknown>()
  const pre = useRef<HTMLPreElement>(null)
  const stick = useRef(true)

  useEffect(() => {
    return followTaskLog(executionId, type, (e) => {
      switch (e.kind) {
        case 'text':
          setText((prev) => prev + e.text)
          if (e.state) setState(e.state)
          setPhase('following')
          break
        case 'reset':
          setText('')
          break
        case 'end':
          if (e.state) setState(e.state)
          setPhase(e.notFound ? 'missing' : 'ended')
          break
        case 'error':
          setError(e.error)
          break
      }
    })
  }, [executionId, type])

  // Keep the newest line in view unless the reader scrolled up.
  useEffect(() => {
    const el = pre.current
    if (el && stick.current) el.scrollTop = el.scrollHeight
  }, [text])

  if (phase === 'missing') {
    return <MessageBar intent="warning"><MessageBarBody>{t`This task does not exist, or you may not read its log.`}</MessageBarBody></MessageBar>
  }
  return (
    <div>
      <div className={styles.head}>
        <TaskStateBadge state={state} />
        {phase !== 'ended' && <Spinner size="tiny" label={phase === 'connecting' ? t`Connecting…` : t`Following the log…`} />}
        {phase === 'ended' && <span>{t`The task has finished.`}</span>}
      </div>
      {error !== undefined && <MessageBar intent="error"><MessageBarBody>{describeError(error)}</MessageBarBody></MessageBar>}
      <pre
        ref={pre}
        className={styles.log}
        role="log"
        aria-live="polite"
        aria-label={t`Task log`}
        data-state={state ?? ''}
        data-phase={phase}
        tabIndex={0}
        onScroll={(e) => {
          const el = e.currentTarget
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24
        }}
      >
        {text}
      </pre>
    </div>
  )
}
