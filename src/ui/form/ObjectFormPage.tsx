/**
 * A page editing one object that has no id (a settings category: `GET|PATCH <url>`): fields from the URL's
 * OPTIONS through the generic form, grouped by the layout, help texts under the fields, server errors on their
 * fields with everything typed kept, a success notice, and the values the server saved shown afterwards.
 * Without the change permission the form is shown read-only.
 */
import { Button, MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components'
import type { MessageDescriptor } from '@lingui/core'
import type { ReactNode } from 'react'
import { useLingui } from '@lingui/react/macro'
import { useAccess } from '../common/access.tsx'
import { notify } from '../common/notify.tsx'
import { Page } from '../common/Page.tsx'
import { hasPerm } from '../common/perms.ts'
import { AutoForm } from './AutoForm.tsx'
import { FormLoadState } from './FormLoadState.tsx'
import type { FieldLayout, FieldOverrides } from './types.ts'
import { useResourceForm, type ResourceForm } from './useResourceForm.ts'

const useStyles = makeStyles({
  footer: { display: 'flex', gap: tokens.spacingHorizontalS, marginTop: tokens.spacingVerticalXL, flexWrap: 'wrap' },
})

export interface ObjectFormPageConfig {
  /** the object's URL (query included, e.g. `?category=security`) */
  url: string
  title: MessageDescriptor
  help?: MessageDescriptor
  layout?: FieldLayout
  overrides?: FieldOverrides
  /** the permission needed to save; without it the form is read-only */
  changePerm?: string
  /** default PATCH: only the rendered fields are sent */
  method?: 'PUT' | 'PATCH'
  /** more buttons next to Save (e.g. "Test mail"), given the live form; shown to those who may save */
  actions?: (form: ResourceForm) => ReactNode
}

/** A settings-like page: one object's form; `tabs` (e.g. a category's sub-pages) above it. */
export function ObjectFormPage({ config, tabs }: { config: ObjectFormPageConfig; tabs?: ReactNode }) {
  const { i18n } = useLingui()
  return (
    <Page title={i18n._(config.title)} help={config.help ? i18n._(config.help) : undefined} back={false} boxed>
      {tabs}
      <ObjectForm config={config} />
    </Page>
  )
}

/** The form alone (inside a page of several, e.g. one per tab). */
export function ObjectForm({ config }: { config: ObjectFormPageConfig }) {
  // a new form per URL: values never leak from one object to another
  return <ObjectFormBody key={config.url} config={config} />
}

function ObjectFormBody({ config }: { config: ObjectFormPageConfig }) {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const canSave = !config.changePerm || hasPerm(access.perms, config.changePerm)
  const form = useResourceForm({
    url: config.url, single: true, view: !canSave, layout: config.layout, overrides: config.overrides, updateMethod: config.method ?? 'PATCH',
  })
  const title = i18n._(config.title)

  const save = async () => {
    const saved = await form.submit()
    if (saved) notify('success', t`Settings saved`)
  }

  return (
    <>
      <FormLoadState form={form} />
      {form.confirmDialog}
      {form.status === 'ready' && (
        <form
          data-state={form.state}
          noValidate
          aria-label={title}
          onSubmit={(e) => {
            e.preventDefault()
            if (canSave) void save()
          }}
        >
          {!canSave && (
            <MessageBar intent="info">
              <MessageBarBody>{t`You may view these settings but not change them.`}</MessageBarBody>
            </MessageBar>
          )}
          <AutoForm form={form} disabled={!canSave} />
          {canSave && (
            <div className={styles.footer}>
              <Button type="submit" appearance="primary" disabled={form.saving} icon={form.saving ? <Spinner size="tiny" /> : undefined}>{t`Save`}</Button>
              {config.actions?.(form)}
            </div>
          )}
        </form>
      )}
    </>
  )
}
