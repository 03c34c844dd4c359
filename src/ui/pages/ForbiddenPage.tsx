import { Button } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { StatusPage } from './StatusPage.tsx'

/** 403 (spec 001 §2): the route exists, the user lacks a permission or the enterprise licence. */
export function ForbiddenPage({ reason }: { reason: 'permission' | 'license' }) {
  const { t } = useLingui()
  const navigate = useNavigate()
  const router = useRouter()
  return (
    <StatusPage
      code="403"
      title={t`You have no permission to view this page`}
      actions={
        <>
          <Button appearance="primary" onClick={() => void navigate({ to: '/' as never })}>{t`Go to the home page`}</Button>
          <Button onClick={() => router.history.back()}>{t`Back`}</Button>
        </>
      }
    >
      {reason === 'license'
        ? t`This feature needs a valid enterprise license.`
        : t`You cannot access the current page. Ask an administrator for the permission if you need it.`}
    </StatusPage>
  )
}
