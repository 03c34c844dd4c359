import { Link, Button, makeStyles, tokens } from '@fluentui/react-components'
import { MessageBar, MessageBarActions, MessageBarBody } from '../ui/common/lazyParts.ts'
import { DismissRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { Suspense, useMemo, useState } from 'react'
import { useAppSelector } from '../app/AppProvider.tsx'
import type { AppSnapshot } from '../app/appMachine.ts'
import { pathOf } from '../router/catalog.ts'
import { licenseWarnings, passwordWarning } from './warnings.ts'
import { usePerms, useProfile, useSettings } from './useShell.ts'

const useStyles = makeStyles({ stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, padding: tokens.spacingHorizontalS } })
const selectLicense = (s: AppSnapshot) => s.context.license

/** Licence and password-expiry warnings above every page (spec 000 §4.1, §8), dismissible for the session. */
export function Warnings() {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const navigate = useNavigate()
  const router = useRouter()
  const perms = usePerms()
  const profile = useProfile()
  const settings = useSettings()
  const license = useAppSelector(selectLicense)
  const [dismissed, setDismissed] = useState<string[]>([])
  const now = useMemo(() => new Date(), [])
  const items: { key: string; text: string; link: { label: string; to: string } }[] = []
  const licenseLink = { label: t`View the license`, to: pathOf('License')! }
  for (const w of licenseWarnings({ canManageLicense: perms.has('settings.change_license'), xpackEnabled: settings.XPACK_ENABLED === true, license }, now)) {
    if (w.kind === 'expired') items.push({ key: 'license-expired', text: t`Your license has expired.`, link: licenseLink })
    else if (w.kind === 'expiring') {
      const date = i18n.date(w.date, { dateStyle: 'medium' })
      items.push({ key: 'license-expiring', text: t`Your license will expire on ${date}.`, link: licenseLink })
    } else {
      const { count, limit } = w
      items.push({ key: 'license-assets', text: t`The number of assets (${count}) exceeds the license limit (${limit}).`, link: licenseLink })
    }
  }
  const pw = passwordWarning(
    { source: profile.source.value, lastUpdated: profile.date_password_last_updated, expirationDays: Number(settings.SECURITY_PASSWORD_EXPIRATION_TIME) || undefined },
    now,
  )
  if (pw) {
    const days = pw.kind === 'expiring' ? pw.days : 0
    items.push({
      key: 'password',
      text: pw.kind === 'expired' ? t`Your password has expired.` : t`Your password will expire in ${days} days.`,
      link: { label: t`Change the password`, to: pathOf('ProfileSetting')! },
    })
  }
  const shown = items.filter((i) => !dismissed.includes(i.key))
  if (!shown.length) return null
  return (
    <div className={styles.stack} role="region" aria-label={t`Warnings`}>
      <Suspense fallback={null}>
      {shown.map((item) => (
        <MessageBar key={item.key} intent="warning">
          <MessageBarBody>
            {item.text}{' '}
            <Link href={router.buildLocation({ to: item.link.to as never }).publicHref} onClick={(e) => { e.preventDefault(); void navigate({ to: item.link.to as never }) }}>{item.link.label}</Link>
          </MessageBarBody>
          <MessageBarActions
            containerAction={<Button appearance="transparent" aria-label={t`Dismiss`} icon={<DismissRegular />} onClick={() => setDismissed((d) => [...d, item.key])} />}
          />
        </MessageBar>
      ))}
      </Suspense>
    </div>
  )
}
