import { Body1, makeStyles, Title2, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useRouterState } from '@tanstack/react-router'
import type { RouteDef } from '../router/types.ts'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, padding: tokens.spacingVerticalXL },
})

const selectRoute = (s: { matches: { staticData?: { route?: RouteDef } }[] }) =>
  s.matches[s.matches.length - 1]?.staticData?.route

/** Placeholder for a route whose page is not built yet: its title and a short note. */
export function LandingPage() {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const route = useRouterState({ select: selectRoute as never }) as ReturnType<typeof selectRoute>
  return (
    <section className={styles.root} aria-labelledby="landing-title">
      <Title2 as="h1" id="landing-title">{route ? i18n._(route.title) : t`Welcome`}</Title2>
      <Body1>{t`This page is not available in this version of the console yet.`}</Body1>
    </section>
  )
}
