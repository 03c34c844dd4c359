/**
 * The dashboard charts (@fluentui/react-charts, this chunk only): logins, active users and sessions per day,
 * and commands by risk level.
 */
import { Card, CardHeader, Text, makeStyles, tokens } from '@fluentui/react-components'
import { DonutChart, LineChart, type ChartProps } from '@fluentui/react-charts'
import { useLingui } from '@lingui/react/macro'
import type { IndexFigures } from '../../../api/terminal.ts'

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(420px, 100%), 1fr))', gap: tokens.spacingHorizontalL },
})

const series = (f: IndexFigures, key: string): number[] => (Array.isArray(f[key]) ? (f[key] as unknown[]).map(Number) : [])

/** `MM-DD` labels of the last days → dates of this year (the series ends today). */
function datesOf(labels: string[]): Date[] {
  const now = new Date()
  return labels.map((l, i) => {
    const d = new Date(now)
    d.setHours(0, 0, 0, 0)
    d.setDate(d.getDate() - (labels.length - 1 - i))
    return d
  })
}

/**
 * A day on the date axis in the console's language ("11月27日", "11/27", "Nov 27"): the chart's own axis is
 * English whatever the language (issue 35).
 */
export function dayLabel(date: Date, locale: string): string {
  return date.toLocaleDateString(locale, { month: 'short', day: 'numeric' })
}

export function DashboardCharts({ figures, showRisk }: { figures: IndexFigures; showRisk: boolean }) {
  const { t, i18n } = useLingui()
  const locale = i18n.locale
  const styles = useStyles()
  const labels = Array.isArray(figures.dates_metrics_date) ? (figures.dates_metrics_date as string[]) : []
  const dates = datesOf(labels)
  const line = (legend: string, key: string, color: string) => ({
    legend, color, data: series(figures, key).map((y, i) => ({ x: dates[i]!, y })),
  })
  const trend: ChartProps = {
    chartTitle: t`Logins and sessions per day`,
    lineChartData: [
      line(t`Logins`, 'dates_metrics_total_count_login', tokens.colorPaletteBlueForeground2),
      line(t`Sessions`, 'dates_metrics_total_count_session', tokens.colorPaletteGreenForeground2),
      line(t`Active users`, 'dates_metrics_total_count_active_users', tokens.colorPaletteMarigoldForeground2),
    ],
  }
  const risks = Array.isArray(figures.dates_commands_by_risk) ? (figures.dates_commands_by_risk as Array<{ risk_level: number; total: number }>) : []
  const ordinary = risks.filter((r) => r.risk_level !== 5).reduce((a, r) => a + r.total, 0)
  const dangerous = risks.filter((r) => r.risk_level === 5).reduce((a, r) => a + r.total, 0)
  const risk: ChartProps = {
    chartTitle: t`Commands by risk`,
    chartData: [
      { legend: t`Ordinary`, data: ordinary, color: tokens.colorPaletteGreenForeground2 },
      { legend: t`Dangerous`, data: dangerous, color: tokens.colorPaletteRedForeground2 },
    ],
  }
  return (
    <div className={styles.grid}>
      <Card>
        <CardHeader header={<Text weight="semibold">{t`Logins and sessions per day`}</Text>} />
        <LineChart data={trend} height={260} culture={locale} customDateTimeFormatter={(d) => dayLabel(d, locale)} />
      </Card>
      {showRisk && (
        <Card>
          <CardHeader header={<Text weight="semibold">{t`Commands by risk`}</Text>} />
          {ordinary + dangerous > 0 ? <DonutChart data={risk} innerRadius={55} height={260} culture={locale} /> : <Text>{t`No commands in this period`}</Text>}
        </Card>
      )}
    </div>
  )
}
