/**
 * The generic create/update page (GenericCreateUpdatePage): the route's `id` means update (PUT), no id means
 * create (POST), `?clone_from=` prefills a create from an existing object. After a create, a notice links to
 * the new object and to the list, then the list opens sorted by `-date_updated`; "Save and continue" stays
 * on a fresh form. A form opened from another page (an asset's Accounts tab) goes back there on save and on
 * cancel (src/ui/common/origin.ts); the notice offers the list only when the user is not sent there.
 */
import { Button, Spinner, makeStyles, tokens } from '@fluentui/react-components'
import type { MessageDescriptor } from '@lingui/core'
import { useLingui } from '@lingui/react/macro'
import { useNavigate, useParams, useRouterState, useSearch } from '@tanstack/react-router'
import { useState, type ReactNode } from 'react'
import type { Row } from '../../api/resources.ts'
import { RouteLink, useGo } from '../common/navigation.tsx'
import { notify } from '../common/notify.tsx'
import { formExit, originOf } from '../common/origin.ts'
import { Page } from '../common/Page.tsx'
import { routePath, type ResourceDef } from '../common/resource.ts'
import { AutoForm } from './AutoForm.tsx'
import { FormLoadState } from './FormLoadState.tsx'
import type { FieldLayout, FieldOverrides } from './types.ts'
import { useResourceForm } from './useResourceForm.ts'
import type { FormValues } from './validators.ts'

const useStyles = makeStyles({
  footer: { display: 'flex', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalXL, flexWrap: 'wrap' },
  links: { display: 'flex', gap: tokens.spacingHorizontalM, marginTop: tokens.spacingVerticalXS },
})

export interface FormPageConfig {
  resource: ResourceDef
  /** API list URL when it differs from the resource's */
  url?: string
  layout?: FieldLayout | ((mode: 'create' | 'update') => FieldLayout)
  overrides?: FieldOverrides | ((mode: 'create' | 'update') => FieldOverrides)
  /** starting values of a new object; gets the page's search params */
  initial?: (search: Record<string, unknown>) => FormValues
  /** last word on the body; gets the page's search params (e.g. a fixed `user`) */
  transform?: (payload: FormValues, values: FormValues, search: Record<string, unknown>) => FormValues
  updateMethod?: 'PUT' | 'PATCH'
  title: { create: MessageDescriptor; update: MessageDescriptor }
  help?: MessageDescriptor
  /** search params carried back to the list and to the detail (e.g. `user`) */
  keepSearch?: readonly string[]
}

const nameOf = (row: Row): string => String(row.name ?? row.hostname ?? row.username ?? row.id)

export function GenericFormPage({ config }: { config: FormPageConfig }) {
  const params = useParams({ strict: false }) as { id?: string }
  const search = useSearch({ strict: false }) as Record<string, unknown>
  const cloneFrom = params.id === undefined && typeof search.clone_from === 'string' ? search.clone_from : undefined
  // A new form per object: values never leak from one object to another.
  return <FormPageBody key={`${params.id ?? ''}|${cloneFrom ?? ''}`} config={config} id={params.id} cloneFrom={cloneFrom} search={search} />
}

function FormPageBody({ config, id, cloneFrom, search }: { config: FormPageConfig; id?: string; cloneFrom?: string; search: Record<string, unknown> }) {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const go = useGo()
  const navigate = useNavigate()
  // read when the form is done: the router records where this history entry came from once it has resolved
  const entry = useRouterState({ select: (s) => s.location.state })
  const { resource } = config
  const url = config.url ?? resource.url
  const [initial] = useState(() => config.initial?.(search))
  const mode = id === undefined ? 'create' : 'update'
  const [layout] = useState(() => (typeof config.layout === 'function' ? config.layout(mode) : config.layout))
  const [overrides] = useState(() => (typeof config.overrides === 'function' ? config.overrides(mode) : config.overrides))
  const [transform] = useState(() => (config.transform ? (p: FormValues, v: FormValues) => config.transform!(p, v, search) : undefined))
  const form = useResourceForm({ url, id, cloneFrom, layout, overrides, initial, transform, updateMethod: config.updateMethod, related: resource.related })
  const kept = Object.fromEntries((config.keepSearch ?? []).filter((k) => search[k] !== undefined).map((k) => [k, search[k]]))
  const list = resource.routes.list

  const save = async (andContinue: boolean) => {
    const saved = await form.submit()
    if (!saved) return
    const name = nameOf(saved)
    const detail = resource.routes.detail
    const exit = formExit(originOf(entry), list.path, form.mode === 'create' || !detail ? 'list' : 'detail')
    const toList = andContinue ? false : exit.toList
    const links: ReactNode = (
      <div className={styles.links}>
        {detail && saved.id !== '' && <RouteLink to={routePath(detail, { id: saved.id })} search={kept}>{t`View details`}</RouteLink>}
        {!toList && <RouteLink to={list.path} search={{ ...list.search, ...kept }}>{t`Back to the list`}</RouteLink>}
      </div>
    )
    if (form.mode === 'create') {
      notify('success', t`Created “${name}”`, links, 6000)
      if (andContinue) form.reset()
      // The form is done: it leaves the history (and its tab closes, src/shell/tabs.ts replaceTab).
      else if (exit.href) void navigate({ href: exit.href, replace: true } as never)
      else go(list.path, { ...list.search, ...kept, order: '-date_updated' }, { replace: true })
    } else {
      notify('success', t`Saved “${name}”`)
      if (exit.href) void navigate({ href: exit.href, replace: true } as never)
      else if (detail) go(routePath(detail, { id: saved.id }), kept, { replace: true })
      else go(list.path, { ...list.search, ...kept }, { replace: true })
    }
  }
  const cancel = () => {
    const back = formExit(originOf(entry), list.path, 'list').href
    if (back) void navigate({ href: back, replace: true } as never)
    else go(list.path, kept)
  }

  const title = i18n._(form.mode === 'create' ? config.title.create : config.title.update)
  return (
    <Page title={title} help={config.help ? i18n._(config.help) : undefined} boxed>
      <FormLoadState form={form} />
      {form.confirmDialog}
      {form.status === 'ready' && (
        <form
          data-state={form.state}
          noValidate
          aria-label={title}
          onSubmit={(e) => {
            e.preventDefault()
            void save(false)
          }}
        >
          <AutoForm form={form} />
          <div className={styles.footer}>
            <Button type="button" appearance="secondary" onClick={cancel} disabled={form.saving}>{t`Cancel`}</Button>
            {form.mode === 'create' && (
              <Button type="button" appearance="secondary" onClick={() => void save(true)} disabled={form.saving}>{t`Save and continue`}</Button>
            )}
            <Button type="submit" appearance="primary" disabled={form.saving} icon={form.saving ? <Spinner size="tiny" /> : undefined}>{t`Save`}</Button>
          </div>
        </form>
      )}
    </Page>
  )
}
