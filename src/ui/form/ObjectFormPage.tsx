/**
 * A page editing one object that has no id (a settings category: `GET|PATCH <url>`): fields from the URL's
 * OPTIONS through the generic form, grouped by the layout, help texts under the fields, server errors on their
 * fields with everything typed kept, a success notice, and the values the server saved shown afterwards.
 * Without the change permission the form is shown read-only.
 */
import { Button, MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components'
import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { useLingui } from '@lingui/react/macro'
import { useMemo, type ReactNode } from 'react'
import { singleObjectQuery } from '../../api/queries.ts'
import { useAccess } from '../common/access.tsx'
import { notify } from '../common/notify.tsx'
import { Page } from '../common/Page.tsx'
import { hasPerm } from '../common/perms.ts'
import { AutoForm } from './AutoForm.tsx'
import { FormLoadState } from './FormLoadState.tsx'
import type { FieldLayout, FieldOverrides } from './types.ts'
import { useResourceForm } from './useResourceForm.ts'
import { useCached } from '../common/useCached.ts'

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
}

/**
 * Secrets are never read back: the object's `SECRETS_SET` (`{KEY: true|false}`) says whether each is set, shown as
 * the placeholder of its (empty) input; typing a value replaces it, leaving it empty keeps it.
 */
export function withSecretPlaceholders(overrides: FieldOverrides | undefined, secretsSet: unknown): FieldOverrides | undefined {
  if (!secretsSet || typeof secretsSet !== 'object') return overrides
  const out: Record<string, FieldOverrides[string]> = { ...overrides }
  for (const [name, isSet] of Object.entries(secretsSet as Record<string, unknown>)) {
    out[name] = { placeholder: isSet === true ? SECRET_SET : SECRET_NOT_SET, ...out[name] }
  }
  return out
}
const SECRET_SET = msg`Set — leave empty to keep it`
const SECRET_NOT_SET = msg`Not set`

export function ObjectFormPage({ config, tabs }: { config: ObjectFormPageConfig; tabs?: ReactNode }) {
  // a new form per URL: values never leak from one object to another
  return <ObjectFormBody key={config.url} config={config} tabs={tabs} />
}

function ObjectFormBody({ config, tabs }: { config: ObjectFormPageConfig; tabs?: ReactNode }) {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const canSave = !config.changePerm || hasPerm(access.perms, config.changePerm)
  // the same cached query the form reads (no second request)
  const object = useCached(singleObjectQuery(config.url, access.orgId))
  const secretsSet = (object.data as Record<string, unknown> | undefined)?.SECRETS_SET
  const secretsKey = JSON.stringify(secretsSet ?? null)
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const overrides = useMemo(() => withSecretPlaceholders(config.overrides, secretsSet), [config.overrides, secretsKey])
  const form = useResourceForm({
    url: config.url, single: true, view: !canSave, layout: config.layout, overrides, updateMethod: config.method ?? 'PATCH',
  })
  const title = i18n._(config.title)

  const save = async () => {
    const saved = await form.submit()
    if (saved) notify('success', t`Settings saved`)
  }

  return (
    <Page title={title} help={config.help ? i18n._(config.help) : undefined} back={false} boxed>
      {tabs}
      <FormLoadState form={form} />
      {form.status === 'ready' && (
        <form
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
            </div>
          )}
        </form>
      )}
    </Page>
  )
}
