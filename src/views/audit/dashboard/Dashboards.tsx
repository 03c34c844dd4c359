/**
 * The console dashboard and the audit dashboard: totals, 7/30-day trends of logins and sessions, top users and
 * assets, commands by risk — the reference console's figures from `GET /api/v1/index/?…`. The chart library is
 * a lazy chunk of its own (Charts.tsx); the totals render without it.
 */
import { Card, CardHeader, Tab, TabList, Text, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { Suspense, useEffect, useState } from 'react'
import { indexFigures, type IndexFigures } from '../../../api/terminal.ts'
import { Page } from '../../../ui/common/Page.tsx'
import { lazyRetry } from '../../../ui/common/retryImport.ts'

const Charts = lazyRetry(() => import('./Charts.tsx').then((m) => ({ default: m.DashboardCharts })))

const useStyles = makeStyles({
  cards: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(200px, 100%), 1fr))', gap: tokens.spacingHorizontalL, marginBottom: tokens.spacingVerticalL },
  figure: { fontSize: tokens.fontSizeHero800, fontWeight: tokens.fontWeightSemibold, lineHeight: tokens.lineHeightHero800 },
  tabs: { marginBottom: tokens.spacingVerticalM },
  lists: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(320px, 100%), 1fr))', gap: tokens.spacingHorizontalL, marginTop: tokens.spacingVerticalL },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
})

const SWITCHES = [
  'total_count_users', 'total_count_assets', 'total_count_online_users', 'total_count_online_sessions', 'total_count_login_users',
  'total_count_user_login_logs', 'total_count_user_login_success_logs', 'total_count_commands', 'total_count_commands_danger',
  'total_count_history_sessions', 'total_count_ftp_logs', 'total_count_operate_logs', 'total_count_change_password_logs',
  'dates_metrics', 'session_dates_metrics', 'dates_login_times_top10_users', 'dates_login_times_top10_assets', 'dates_commands_by_risk',
]

const num = (f: IndexFigures | undefined, key: string) => (typeof f?.[key] === 'number' ? (f[key] as number) : undefined)

function Figure({ label, value }: { label: string; value: number | undefined }) {
  const styles = useStyles()
  return (
    <Card>
      <CardHeader header={<Text weight="semibold">{label}</Text>} />
      <Text className={styles.figure} aria-label={label}>{value === undefined ? '–' : value.toLocaleString()}</Text>
    </Card>
  )
}

function useFigures(days: number) {
  const [figures, setFigures] = useState<IndexFigures>()
  useEffect(() => {
    let cancelled = false
    indexFigures(SWITCHES, days).then((f) => { if (!cancelled) setFigures(f) }, () => undefined)
    return () => { cancelled = true }
  }, [days])
  return figures
}

function Dashboard({ kind }: { kind: 'console' | 'audit' }) {
  const { t } = useLingui()
  const styles = useStyles()
  const [days, setDays] = useState(7)
  const f = useFigures(days)
  const top = (key: string, name: string) => (Array.isArray(f?.[key]) ? (f[key] as Array<Record<string, unknown>>) : []).map((x) => ({ name: String(x[name] ?? ''), total: Number(x.total ?? 0) }))
  const cards = kind === 'console'
    ? [[t`Users`, num(f, 'total_count_users')], [t`Assets`, num(f, 'total_count_assets')], [t`Online users`, num(f, 'total_count_online_users')], [t`Online sessions`, num(f, 'total_count_online_sessions')]] as const
    : [[t`Logins`, num(f, 'total_count_user_login_logs')], [t`Successful logins`, num(f, 'total_count_user_login_success_logs')], [t`Commands`, num(f, 'total_count_commands')],
      [t`Dangerous commands`, num(f, 'total_count_commands_danger')], [t`Offline sessions`, num(f, 'total_count_history_sessions')], [t`Online sessions`, num(f, 'total_count_online_sessions')],
      [t`File transfers`, num(f, 'total_count_ftp_logs')], [t`Operate logs`, num(f, 'total_count_operate_logs')]] as const
  const users = top('dates_login_times_top10_users', 'user')
  const assets = top('dates_login_times_top10_assets', 'asset')
  return (
    <Page title={t`Dashboard`} back={false}>
      <TabList className={styles.tabs} selectedValue={String(days)} onTabSelect={(_, d) => setDays(Number(d.value))} aria-label={t`Period`}>
        <Tab value="7">{t`Last 7 days`}</Tab>
        <Tab value="30">{t`Last 30 days`}</Tab>
      </TabList>
      <div className={styles.cards}>
        {cards.map(([label, value]) => <Figure key={label} label={label} value={value} />)}
      </div>
      {f && (
        <Suspense fallback={<div role="status">{t`Loading charts…`}</div>}>
          <Charts figures={f} showRisk={kind === 'audit'} />
        </Suspense>
      )}
      <div className={styles.lists}>
        <Card>
          <CardHeader header={<Text weight="semibold">{t`Top users by sessions`}</Text>} />
          {users.length ? <ol className={styles.list}>{users.map((u) => <li key={u.name}>{u.name} — {u.total}</li>)}</ol> : <Text>{t`No sessions in this period`}</Text>}
        </Card>
        <Card>
          <CardHeader header={<Text weight="semibold">{t`Top assets by sessions`}</Text>} />
          {assets.length ? <ol className={styles.list}>{assets.map((a) => <li key={a.name}>{a.name} — {a.total}</li>)}</ol> : <Text>{t`No sessions in this period`}</Text>}
        </Card>
      </div>
    </Page>
  )
}

export function AuditDashboardPage() {
  return <Dashboard kind="audit" />
}

export function ConsoleDashboardPage() {
  return <Dashboard kind="console" />
}
