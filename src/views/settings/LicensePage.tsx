/**
 * Settings → License: the imported licence (corporation, edition, assets used / allowed, expiry)
 * and "Import licence" (a licence file, checked by the server: the alert says why one is refused). Without
 * xpack (LICENSE=none) the page says so and offers no import.
 */
import { Button, MessageBar, MessageBarBody, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components'
import { DocumentArrowUpRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useCallback, useEffect, useRef, useState } from 'react'
import { errorText, ApiError } from '../../api/client.ts'
import { fetchLicense, importLicense, type LicenseDetail } from '../../api/license.ts'
import { notify } from '../../ui/common/notify.tsx'
import { Page } from '../../ui/common/Page.tsx'

const useStyles = makeStyles({
  list: { display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: tokens.spacingHorizontalXXL, rowGap: tokens.spacingVerticalM, margin: 0 },
  term: { fontWeight: tokens.fontWeightSemibold },
  dd: { margin: 0 },
  actions: { marginTop: tokens.spacingVerticalXL, display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center' },
})

type State = { status: 'loading' } | { status: 'none' } | { status: 'ok'; license: LicenseDetail } | { status: 'error'; message: string }

export function LicensePage() {
  const { t } = useLingui()
  const styles = useStyles()
  const [state, setState] = useState<State>({ status: 'loading' })
  const [refused, setRefused] = useState('')
  const [busy, setBusy] = useState(false)
  const input = useRef<HTMLInputElement>(null)

  const load = useCallback(() => {
    fetchLicense().then(
      (license) => setState({ status: 'ok', license }),
      // 404: xpack is off (LICENSE=none)
      (e: unknown) => setState(e instanceof ApiError && e.status === 404 ? { status: 'none' } : { status: 'error', message: e instanceof Error ? e.message : String(e) }),
    )
  }, [])
  useEffect(load, [load])

  const upload = async (file: File | undefined) => {
    if (!file) return
    setBusy(true)
    setRefused('')
    try {
      notify('success', (await importLicense(file)) || t`Licence imported`)
      load()
    } catch (e) {
      setRefused(e instanceof ApiError ? errorText(e.data) || e.message : String(e))
    } finally {
      setBusy(false)
    }
  }

  const rows: [string, string][] = state.status === 'ok' ? [
    [t`Corporation`, state.license.corporation],
    [t`Edition`, state.license.edition],
    [t`Assets`, t`${state.license.current_asset_count ?? '-'} used of ${state.license.asset_count ?? '-'}`],
    [t`Expires`, state.license.date_expired.slice(0, 10)],
  ] : []

  return (
    <Page title={t`License`} back={false} boxed>
      {state.status === 'loading' && <Spinner label={t`Loading…`} />}
      {state.status === 'error' && <MessageBar intent="error"><MessageBarBody>{state.message}</MessageBarBody></MessageBar>}
      {state.status === 'none' && <Text>{t`This edition has no licence to manage.`}</Text>}
      {state.status === 'ok' && (
        <>
          <dl className={styles.list}>
            {rows.map(([term, value]) => [
              <dt key={`t-${term}`} className={styles.term}>{term}</dt>,
              <dd key={`d-${term}`} className={styles.dd}>{value || '-'}</dd>,
            ])}
          </dl>
          {refused && <MessageBar intent="error" role="alert"><MessageBarBody>{refused}</MessageBarBody></MessageBar>}
          <div className={styles.actions}>
            <input ref={input} type="file" accept=".json,.lic,application/json" hidden aria-hidden tabIndex={-1} data-testid="license-file"
              onChange={(e) => { void upload(e.target.files?.[0]); e.target.value = '' }} />
            <Button appearance="primary" icon={busy ? <Spinner size="tiny" /> : <DocumentArrowUpRegular />} disabled={busy} onClick={() => input.current?.click()}>
              {t`Import licence`}
            </Button>
          </div>
        </>
      )}
    </Page>
  )
}
