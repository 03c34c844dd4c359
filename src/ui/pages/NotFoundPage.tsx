import { Button } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useRouter } from '@tanstack/react-router'
import { StatusPage } from './StatusPage.tsx'

/** 404 (spec 001 §2): an unknown path, or a feature switched off. */
export function NotFoundPage() {
  const { t } = useLingui()
  const navigate = useNavigate()
  const router = useRouter()
  return (
    <StatusPage
      code="404"
      title={t`Page not found`}
      actions={
        <>
          <Button appearance="primary" onClick={() => void navigate({ to: '/' as never })}>{t`Go to the home page`}</Button>
          <Button onClick={() => router.history.back()}>{t`Back`}</Button>
        </>
      }
    >
      {t`The page you asked for does not exist, or it has been moved.`}
    </StatusPage>
  )
}
