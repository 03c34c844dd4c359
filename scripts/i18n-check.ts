/**
 * Catalogues are complete: extraction is up to date with the sources (nothing new to extract, nothing stale),
 * and zh and ja translate every message. Then compiles them for the build and the tests.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'

const LOCALES = ['en', 'zh', 'ja']
// Every catalogue file: the console's (locales/<l>.po), the login page's (locales/login/<l>.po) and the web
// terminal's (locales/luna/<l>.po).
const FILES = ['locales', 'locales/login', 'locales/luna'].flatMap((dir) => LOCALES.map((l) => `${dir}/${l}.po`))
const before = new Map(FILES.map((f) => [f, readFileSync(f, 'utf8')]))
const ex = spawnSync('npx', ['lingui', 'extract', '--clean'], { encoding: 'utf8' })
if (ex.status !== 0) {
  console.error(ex.stdout, ex.stderr)
  process.exit(1)
}
const problems: string[] = []
const strip = (po: string) => po.replace(/^"POT-Creation-Date:.*$/m, '')
for (const f of FILES) {
  const after = readFileSync(f, 'utf8')
  if (strip(after) !== strip(before.get(f)!)) problems.push(`${f} is not up to date with the sources: run \`npm run i18n\` and translate`)
  writeFileSync(f, before.get(f)!)
}
for (const f of FILES.filter((x) => !x.endsWith('/en.po'))) {
  const po = before.get(f)!
  let id = ''
  let missing = 0
  const lines = po.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    if (line.startsWith('msgid ')) id = line
    if (line === 'msgstr ""' && id !== 'msgid ""' && !(lines[i + 1] ?? '').startsWith('"')) missing++
  }
  if (missing) problems.push(`${f}: ${missing} messages without a translation`)
}
const comp = spawnSync('npx', ['lingui', 'compile', '--typescript', '--strict'], { encoding: 'utf8' })
if (comp.status !== 0) problems.push(`lingui compile failed:\n${comp.stdout}\n${comp.stderr}`)
if (problems.length) {
  console.error(problems.join('\n'))
  process.exit(1)
}
console.log('i18n: catalogues up to date; zh and ja complete')
