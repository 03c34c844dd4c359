/**
 * A role's permissions as a tri-state tree (from the permission tree API). Ticking add/change/delete ticks view
 * of the same model; unticking view clears the model's other permissions. Save PATCHes the role's permissions.
 */
import { Button, MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useMemo, useState } from 'react'
import { permissionTreeQuery, saveRolePermissions } from '../../../api/rbac.ts'
import type { Row } from '../../../api/resources.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'
import { TreeEditor } from '../../../ui/common/TreeEditor.tsx'
import { useAccess } from '../../../ui/common/access.tsx'
import { useCached } from '../../../ui/common/useCached.ts'
import { buildPermTree, permissionIds, withDependencies } from './permTree.ts'
import { isBuiltin, roleResources, scopeOf } from './resource.ts'

const useStyles = makeStyles({
  bar: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', marginBottom: tokens.spacingVerticalM, flexWrap: 'wrap' },
  tree: { maxWidth: '720px' },
})

export function RolePermissions({ role, canChange, onSaved }: { role: Row; canChange: boolean; onSaved: () => void }) {
  const { t } = useLingui()
  const styles = useStyles()
  const scope = scopeOf(role.scope)
  const { orgId } = useAccess()
  const source = useCached(permissionTreeQuery(role.id, orgId))
  const tree = useMemo(() => buildPermTree(source.data ?? []), [source.data])
  const [checked, setChecked] = useState<Set<string>>(new Set())
  const [saving, setSaving] = useState(false)
  useEffect(() => setChecked(new Set(tree.checked)), [tree])
  const editable = canChange && !isBuiltin(role) && !tree.readOnly && scope !== undefined
  const dirty = checked.size !== tree.checked.size || [...checked].some((id) => !tree.checked.has(id))

  const save = async () => {
    if (!scope) return
    setSaving(true)
    try {
      await saveRolePermissions(roleResources[scope].url, role.id, permissionIds(checked, tree))
      notify('success', t`Permissions saved`)
      source.reload()
      onSaved()
    } catch (e) {
      notify('error', describeError(e))
    } finally {
      setSaving(false)
    }
  }

  if (source.status === 'error') return <MessageBar intent="error"><MessageBarBody>{describeError(source.error)}</MessageBarBody></MessageBar>
  if (!source.data) return <Spinner label={t`Loading…`} />
  return (
    <section aria-label={t`Permissions`}>
      <div className={styles.bar}>
        {editable ? (
          <>
            <Button appearance="primary" disabled={!dirty || saving} icon={saving ? <Spinner size="tiny" /> : undefined} onClick={() => void save()}>{t`Save permissions`}</Button>
            <Button appearance="secondary" disabled={!dirty || saving} onClick={() => setChecked(new Set(tree.checked))}>{t`Undo changes`}</Button>
          </>
        ) : (
          <MessageBar intent="info"><MessageBarBody>{isBuiltin(role) ? t`Built-in roles cannot be changed.` : t`You can view these permissions but not change them.`}</MessageBarBody></MessageBar>
        )}
      </div>
      <div className={styles.tree}>
        <TreeEditor
          label={t`Permissions`}
          nodes={tree.roots}
          checked={checked}
          disabled={!editable || saving}
          onChange={(next, { node, on }) => setChecked(withDependencies(tree, next, node, on))}
        />
      </div>
    </section>
  )
}
