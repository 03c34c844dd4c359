/**
 * A labelled state (`{value, label}` as the API answers a labelled choice) as a coloured badge: the tone comes from
 * the state word alone (pending/open → warning, approved/success → success, rejected/failed → danger, closed and
 * others → neutral), so any resource with a workflow state shows it the same way.
 */
import { Badge } from '@fluentui/react-components'

const TONES: Record<string, 'warning' | 'success' | 'danger' | 'informative'> = {
  pending: 'warning', open: 'warning', running: 'warning', reopen: 'warning',
  approved: 'success', success: 'success', accepted: 'success',
  rejected: 'danger', failed: 'danger', error: 'danger',
}

export function stateTone(value: string): 'warning' | 'success' | 'danger' | 'informative' {
  return TONES[value] ?? 'informative'
}

export function StateBadge({ state }: { state: { value: string; label: string } | string | null | undefined }) {
  if (!state) return <span>-</span>
  const value = typeof state === 'string' ? state : state.value
  const label = typeof state === 'string' ? state : state.label
  return <Badge appearance="tint" color={stateTone(value)} shape="rounded">{label}</Badge>
}
