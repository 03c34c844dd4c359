/**
 * Phone numbers: stored as `+<calling code> <national number>`, rendered as JumpServer's PhoneField does,
 * `{"code": "+86", "phone": 13800138000}` (contract §3). Input: that object, `+86 138…`, `+86138…` (the code
 * is recognised from the ITU list, which is prefix-free), or bare digits (region CN, JumpServer's default).
 */
const CODES = new Set([
  '1', '7', '20', '27', '30', '31', '32', '33', '34', '36', '39', '40', '41', '43', '44', '45', '46', '47', '48', '49',
  '51', '52', '53', '54', '55', '56', '57', '58', '60', '61', '62', '63', '64', '65', '66', '81', '82', '84', '86',
  '90', '91', '92', '93', '94', '95', '98', '212', '213', '216', '234', '254', '351', '352', '353', '358', '370',
  '371', '372', '380', '420', '421', '852', '853', '855', '856', '880', '886', '960', '961', '962', '965', '966',
  '971', '972', '973', '974', '976', '977', '992', '993', '994', '995', '996', '998',
])

export interface PhoneValue { code: string; phone: number | string }

export function phoneValue(stored: string | null | undefined): PhoneValue | null {
  if (!stored) return null
  const m = /^(\+\d{1,4}) (\d+)$/.exec(stored)
  if (m) return { code: m[1]!, phone: Number(m[2]) }
  if (/^\d{1,15}$/.test(stored)) return { code: '+86', phone: Number(stored) }
  return { code: '', phone: stored }
}

/** `{ok, value}`: value null clears the number. */
export function normalizePhone(input: unknown): { ok: true; value: string | null } | { ok: false } {
  if (input === null || input === undefined || input === '') return { ok: true, value: null }
  if (typeof input === 'object' && !Array.isArray(input)) {
    const o = input as { code?: unknown; phone?: unknown }
    if (o.phone === undefined || o.phone === null || o.phone === '') return { ok: true, value: null }
    return normalizePhone(`${String(o.code ?? '+86').trim()} ${String(o.phone)}`)
  }
  if (typeof input !== 'string' && typeof input !== 'number') return { ok: false }
  const text = String(input).trim()
  const spaced = /^(\+\d{1,4})[\s-]+(.+)$/.exec(text)
  const digits = (s: string) => s.replace(/[\s\-().]/g, '')
  if (spaced && CODES.has(spaced[1]!.slice(1))) {
    const national = digits(spaced[2]!)
    return /^\d{4,15}$/.test(national) ? { ok: true, value: `${spaced[1]} ${national}` } : { ok: false }
  }
  const all = digits(text)
  if (/^\+\d{6,18}$/.test(all)) {
    for (const len of [1, 2, 3]) {
      const code = all.slice(1, 1 + len)
      if (CODES.has(code)) return { ok: true, value: `+${code} ${all.slice(1 + len)}` }
    }
    return { ok: false }
  }
  if (/^\d{4,15}$/.test(all)) return { ok: true, value: `+86 ${all}` }
  return { ok: false }
}
