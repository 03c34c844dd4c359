// What Lingui's macros compile to, reduced to message descriptors: `msg\`User\`` → { id: 'User', message: 'User' }.
const text = (strings, ...values) => (Array.isArray(strings) && 'raw' in strings
  ? strings.reduce((out, s, i) => out + s + (i < values.length ? `{${i}}` : ''), '')
  : typeof strings === 'string' ? strings : String(strings?.message ?? strings?.id ?? ''))
export const msg = (strings, ...values) => {
  const message = text(strings, ...values)
  return { id: message, message }
}
export const defineMessage = msg
export const t = (strings, ...values) => text(strings, ...values)
export const plural = (_value, options) => String(options?.other ?? '')
export const select = (_value, options) => String(options?.other ?? '')
export const selectOrdinal = plural
