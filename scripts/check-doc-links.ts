/**
 * Every relative link of README.md and docs/ resolves: the file exists, and a `#fragment` names a heading of it
 * (GitHub's anchors: lower case, punctuation dropped, spaces as dashes). External links are not fetched.
 * `node --import tsx scripts/check-doc-links.ts` prints the broken ones and exits 1; scripts/check-doc-links.test.ts
 * runs the same check in the unit step.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return markdownFiles(path)
    return name.endsWith('.md') ? [path] : []
  })
}

/** GitHub's anchor of a heading. */
export function anchorOf(heading: string): string {
  return heading.trim().toLowerCase().replace(/[`*_]/g, '').replace(/[^\p{L}\p{N} -]/gu, '').replace(/ /g, '-')
}

function anchors(file: string): Set<string> {
  const out = new Set<string>()
  const seen = new Map<string, number>()
  let fenced = false
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    const m = !fenced && /^#{1,6} (.*)$/.exec(line)
    if (!m) continue
    const base = anchorOf(m[1]!)
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    out.add(n ? `${base}-${n}` : base)
  }
  return out
}

/** Broken relative links, as `file: target (why)`. */
export function brokenLinks(): string[] {
  const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))]
  const broken: string[] = []
  for (const file of files) {
    let fenced = false
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line.startsWith('```')) fenced = !fenced
      if (fenced) continue
      for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue
        const [path, fragment] = target.split('#') as [string, string | undefined]
        const resolved = path ? resolve(dirname(file), decodeURIComponent(path)) : file
        const where = `${relative(root, file)}: ${target}`
        if (!existsSync(resolved)) broken.push(`${where} (no such file)`)
        else if (fragment && resolved.endsWith('.md') && !anchors(resolved).has(fragment)) broken.push(`${where} (no such heading)`)
      }
    }
  }
  return broken
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const broken = brokenLinks()
  for (const b of broken) console.log(b)
  console.log(broken.length ? `${broken.length} broken links` : 'every relative link resolves')
  process.exit(broken.length ? 1 : 0)
}
