/** Pure helpers of the asset request form and the approver's edits (tested in requestModel.test.ts). */
import { msg } from '@lingui/core/macro'

export const ACTION_CHOICES = [
  { value: 'connect', label: msg`Connect` }, { value: 'upload', label: msg`Upload` }, { value: 'download', label: msg`Download` },
  { value: 'copy', label: msg`Copy` }, { value: 'paste', label: msg`Paste` },
] as const

const pad = (n: number) => String(n).padStart(2, '0')

/** An ISO date as the value of an `<input type="datetime-local">` (local time, minutes). */
export function toLocalInput(iso: string): string {
  const d = new Date(iso)
  if (!iso || Number.isNaN(d.getTime())) return ''
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** A datetime-local value back to ISO (undefined when empty or invalid). */
export function fromLocalInput(v: string): string | undefined {
  if (!v) return undefined
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString()
}

/** The default expiry of a request: TICKET_AUTHORIZE_DEFAULT_TIME units (`day` or `hour`) after `from`. */
export function defaultExpiry(from: Date, amount: unknown, unit: unknown): Date {
  const n = Number(amount)
  const count = Number.isFinite(n) && n > 0 ? n : 7
  const ms = unit === 'hour' ? 3600_000 : 86400_000
  return new Date(from.getTime() + count * ms)
}
