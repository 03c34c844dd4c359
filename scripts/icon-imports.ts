/**
 * `import { PeopleRegular } from '@fluentui/react-icons'` becomes `import { PeopleRegular } from
 * '@fluentui/react-icons/svg/people'` in the console's own modules, at build time.
 *
 * The package's root re-exports its icons from a few dozen large modules (`lib/icons/chunk-N.js`), each holding
 * hundreds of icons; the bundler tree-shakes inside a module but splits code by module. Two lazy chunks using two
 * different icons of one such module (the shell's menu and a list page's commands) made that module a file of its
 * own on the first screen — two more requests for 3 KB. The package also has one module per icon family
 * (`lib/atoms/svg/<family>.js`, exported as `@fluentui/react-icons/svg/<family>`): importing from those, an icon
 * goes where it is used. Names that are not icons (`FluentIcon`, `bundleIcon`…) stay on the root import.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Plugin } from 'vite'

const ROOT = '@fluentui/react-icons'
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]@fluentui\/react-icons['"];?/g

/** Icon export name → family module (`people` for PeopleRegular), read from the package's atom modules. */
export function iconFamilies(atomsDir: string): Map<string, string> {
  const families = new Map<string, string>()
  for (const file of readdirSync(atomsDir)) {
    if (!file.endsWith('.js')) continue
    const family = file.slice(0, -3)
    for (const m of readFileSync(join(atomsDir, file), 'utf8').matchAll(/export const (\w+)\s*=/g)) families.set(m[1]!, family)
  }
  return families
}

/** The source with its root icon imports split by family; the source itself when it has none. */
export function splitIconImports(code: string, families: ReadonlyMap<string, string>): string {
  return code.replace(IMPORT, (statement, list: string) => {
    const rest: string[] = []
    const byFamily = new Map<string, string[]>()
    for (const raw of list.split(',')) {
      const spec = raw.trim()
      if (!spec) continue
      const name = /^(?:type\s+)?(\w+)/.exec(spec)![1]!
      const family = spec.startsWith('type ') ? undefined : families.get(name)
      if (family) byFamily.set(family, [...(byFamily.get(family) ?? []), spec])
      else rest.push(spec)
    }
    if (byFamily.size === 0) return statement
    const lines = [...byFamily].map(([family, specs]) => `import { ${specs.join(', ')} } from '${ROOT}/svg/${family}';`)
    if (rest.length) lines.unshift(`import { ${rest.join(', ')} } from '${ROOT}';`)
    return lines.join('\n')
  })
}

export function iconImportsByFamily(): Plugin {
  let families: Map<string, string> | undefined
  return {
    name: 'bastion:icon-imports',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]src[\\/].*\.tsx?$/.test(id) || !code.includes(ROOT)) return undefined
      families ??= iconFamilies(join(dirname(createRequire(import.meta.url).resolve(`${ROOT}/package.json`)), 'lib', 'atoms', 'svg'))
      const out = splitIconImports(code, families)
      return out === code ? undefined : { code: out, map: null }
    },
  }
}
