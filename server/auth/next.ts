/**
 * `next` redirect targets are honoured only for same-site paths: a single leading `/`, not `//` or `/\`
 * (protocol-relative), no scheme, no backslash or control character anywhere (browsers drop tabs and
 * newlines and read `\` as `/`, which would turn `/\t/evil.example` into `//evil.example`).
 */
export function safeNext(next: unknown, fallback = '/ui/'): string {
  return isSafeNext(next) ? next : fallback
}

export function isSafeNext(next: unknown): next is string {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return false
  if (!next.startsWith('/') || next.startsWith('//')) return false
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return false
  return true
}
