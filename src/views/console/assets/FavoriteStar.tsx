/**
 * The favourite star of an asset (the signed-in user's favourites, `/api/v1/assets/favorite-assets/`). Every
 * star on the screen shares one set, read once and kept in step with each toggle.
 */
import { Button, tokens } from '@fluentui/react-components'
import { Tooltip } from '../../../ui/common/overlays.tsx'
import { StarFilled, StarRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useEffect, useSyncExternalStore } from 'react'
import { favoriteAssets, setFavoriteAsset } from '../../../api/assets.ts'
import { describeError } from '../../../ui/common/errors.ts'
import { notify } from '../../../ui/common/notify.tsx'

let ids: ReadonlySet<string> = new Set()
let loading: Promise<void> | undefined
const listeners = new Set<() => void>()
const publish = (next: ReadonlySet<string>) => { ids = next; for (const l of listeners) l() }
const subscribe = (l: () => void) => { listeners.add(l); return () => { listeners.delete(l) } }

function load(): Promise<void> {
  loading ??= favoriteAssets().then(publish, () => { loading = undefined })
  return loading
}

export function FavoriteStar({ assetId, name }: { assetId: string; name: string }) {
  const { t } = useLingui()
  const set = useSyncExternalStore(subscribe, () => ids)
  useEffect(() => { void load() }, [])
  const on = set.has(assetId)
  const label = on ? t`Remove ${name} from favourites` : t`Add ${name} to favourites`
  const toggle = async () => {
    try {
      await setFavoriteAsset(assetId, !on)
      const next = new Set(ids)
      if (on) next.delete(assetId)
      else next.add(assetId)
      publish(next)
    } catch (e) { notify('error', describeError(e)) }
  }
  return (
    <Tooltip content={label} relationship="label">
      <Button appearance="subtle" size="small" aria-pressed={on} data-favorite={on ? 'on' : 'off'}
        icon={on ? <StarFilled primaryFill={tokens.colorPaletteMarigoldForeground1} /> : <StarRegular />} onClick={() => void toggle()} />
    </Tooltip>
  )
}
