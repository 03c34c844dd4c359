/**
 * Every setting the server knows, with its category and default (contract §4.1, §5.12), derived from the
 * declarations (declarations.ts): `getSetting`/`allSettings` read stored values over these defaults.
 * Keys of categories not declared yet live in INTERNAL_SETTINGS there; add new keys to a declaration.
 */
import { CATEGORIES, INTERNAL_SETTINGS } from './declarations.ts'

export interface SettingDef { category: string; default: unknown; encrypted?: boolean }

export const SETTINGS: Record<string, SettingDef> = {
  ...INTERNAL_SETTINGS,
  ...Object.fromEntries([...CATEGORIES.values()].flatMap((c) =>
    c.fields.map((f) => [f.name, { category: c.name, default: f.default, encrypted: !!f.secret }] as const))),
}
