/** Workbench → Home: the user's counters (granted assets, connection tokens, sessions) and recent logins. */
import { Card, CardHeader, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useState } from 'react'
import { myOverview } from '../../api/perms.ts'
import type { Row } from '../../api/resources.ts'
import { describeError } from '../../ui/common/errors.ts'
import { Page } from '../../ui/common/Page.tsx'
import { formatMoment } from '../../ui/table/formatters.ts'

const useStyles = makeStyles({
  counters: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(180px, 1fr))', gap: tokens.spacingHorizontalL, marginBottom: tokens.spacingVerticalL },
  number: { fontSize: tokens.fontSizeHero800, fontWeight: tokens.fontWeightSemibold, padding: `0 ${tokens.spacingHorizontalM} ${tokens.spacingVerticalM}` },
  table: { width: '100%', borderCollapse: 'collapse', '& th, & td': { textAlign: 'left', padding: tokens.spacingVerticalXS, borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}` } },
})

const text = (v: unknown) => (v && typeof v === 'object' ? String((v as Row).label ?? (v as Row).value ?? '') : String(v ?? ''))

export function MyHomePage() {
  const { t } = useLingui()
  const styles = useStyles()
  const [data, setData] = useState<Awaited<ReturnType<typeof myOverview>> | undefined>()
  const [error, setError] = useState<string | undefined>()
  useEffect(() => {
    let live = true
    myOverview().then((d) => live && setData(d), (e: unknown) => live && setError(describeError(e)))
    return () => { live = false }
  }, [])
  const counters: [string, number | undefined][] = [[t`My assets`, data?.assets], [t`Connection tokens`, data?.tokens], [t`My sessions`, data?.sessions]]
  return (
    <Page title={t`Home`} back={false}>
      {error && <Text role="alert">{error}</Text>}
      <div className={styles.counters}>
        {counters.map(([label, n]) => (
          <Card key={label}>
            <CardHeader header={<Text as="h2" weight="semibold">{label}</Text>} />
            <div className={styles.number} data-counter={label}>{n === undefined ? <Spinner size="tiny" /> : n}</div>
          </Card>
        ))}
      </div>
      <Card>
        <CardHeader header={<Text as="h2" weight="semibold">{t`Recent logins`}</Text>} />
        <table className={styles.table}>
          <thead><tr><th scope="col">{t`Date`}</th><th scope="col">{t`IP`}</th><th scope="col">{t`City`}</th><th scope="col">{t`Type`}</th><th scope="col">{t`Status`}</th></tr></thead>
          <tbody>
            {(data?.logins ?? []).map((l, i) => (
              <tr key={String(l.id ?? i)}><td>{formatMoment(l.datetime)}</td><td>{text(l.ip)}</td><td>{text(l.city)}</td><td>{text(l.type)}</td><td>{text(l.status)}</td></tr>
            ))}
          </tbody>
        </table>
      </Card>
    </Page>
  )
}
