/**
 * Login ACL rules `{ip_group: ["*"], time_period: [{id: 0-6, value: "HH:MM~HH:MM、…"}]}`: validation and
 * matching. Weekday ids follow Python's `%w` (0 = Sunday); an empty time_period list means any time;
 * an end of `00:00` means the end of the day.
 */
import { BlockList, isIP } from 'node:net'
import { ipMatches } from '../../auth/ip-match.ts'
import { addMessages, tr } from '../../i18n.ts'
import type { Ctx } from '../../engine/types.ts'

addMessages({
  'IP address invalid: `{ip}`': ['IP 地址无效: `{ip}`', '無効な IP アドレスです: `{ip}`'],
  'Time period invalid: `{value}`': ['时间段无效: `{value}`', '無効な時間帯です: `{value}`'],
})

/** `*`, an address, a CIDR subnet or an address range. */
export function isIpRule(rule: string): boolean {
  const r = rule.trim()
  if (r === '*') return true
  try {
    if (r.includes('/')) {
      const [net, bits] = r.split('/')
      const fam = isIP(net ?? '')
      const n = Number(bits)
      return fam !== 0 && /^\d{1,3}$/.test(bits ?? '') && n >= 0 && n <= (fam === 4 ? 32 : 128)
    }
    if (r.includes('-')) {
      const [a = '', b = ''] = r.split('-')
      if (!isIP(a) || isIP(a) !== isIP(b)) return false
      new BlockList().addRange(a, b, isIP(a) === 6 ? 'ipv6' : 'ipv4')
      return true
    }
    return isIP(r) !== 0
  } catch {
    return false
  }
}

const SEGMENT = /^([01]\d|2[0-3]):[0-5]\d~([01]\d|2[0-4]):[0-5]\d$/

export function segmentsOf(value: string): string[] {
  return value.split(/[、,，]/).map((s) => s.trim()).filter(Boolean)
}

export function validIpGroup(list: string[], ctx: Ctx): string | undefined {
  const bad = list.find((x) => !isIpRule(x))
  return bad === undefined ? undefined : tr(ctx.lang, 'IP address invalid: `{ip}`', { ip: bad })
}

export function validTimePeriods(list: unknown[], ctx: Ctx): string | undefined {
  for (const p of list) {
    const o = p as { id?: unknown; value?: unknown }
    const ok = !!p && typeof p === 'object' && Number.isInteger(o.id) && (o.id as number) >= 0 && (o.id as number) <= 6 &&
      typeof o.value === 'string' && segmentsOf(o.value).every((s) => SEGMENT.test(s))
    if (!ok) return tr(ctx.lang, 'Time period invalid: `{value}`', { value: JSON.stringify(p) })
  }
  return undefined
}

/** Wall-clock weekday (0 = Sunday) and `HH:MM` of an instant in a time zone. */
function wall(now: Date, tz: string): { day: number; time: string } {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    .formatToParts(now).map((p) => [p.type, p.value]))
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(String(parts.weekday))
  return { day, time: `${String(Number(parts.hour) % 24).padStart(2, '0')}:${parts.minute}` }
}

export function timeMatches(periods: unknown, now: Date, tz: string): boolean {
  if (!Array.isArray(periods) || periods.length === 0) return true
  const { day, time } = wall(now, tz)
  const today = periods.find((p) => Number((p as { id?: unknown }).id) === day) as { value?: string } | undefined
  if (!today?.value) return false
  return segmentsOf(today.value).some((s) => {
    const [start = '', endRaw = ''] = s.split('~')
    const end = endRaw === '00:00' ? '24:00' : endRaw
    return start <= time && time <= end
  })
}

export interface Rules { ip_group?: unknown; time_period?: unknown }

export function rulesMatch(rules: Rules | null | undefined, ip: string, now: Date, tz: string): boolean {
  const ipGroup = Array.isArray(rules?.ip_group) ? rules.ip_group : ['*']
  return ipMatches(ip, ipGroup) && timeMatches(rules?.time_period, now, tz)
}
