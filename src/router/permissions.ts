/**
 * Permission requirements (spec 000 §6): every entry must hold; an entry `a|b` holds when either does.
 * An empty list is open to any signed-in user.
 */
export function hasPermission(held: ReadonlySet<string> | readonly string[], required: readonly string[]): boolean {
  const set: ReadonlySet<string> = held instanceof Set ? held : new Set(held as readonly string[])
  return required.every((entry) => entry.split('|').some((alt) => set.has(alt.trim())))
}
