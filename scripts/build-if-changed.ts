/**
 * `npm start` builds the console only when its inputs changed since the last build: a digest of every input file
 * (path and content) is kept beside the build's identity (dist/index.html and dist/login.html, size and mtime);
 * when both match, the build in dist/ is current and the start goes straight to the server (seconds instead of the
 * 20–25 s of a build on two cores). Anything else — first start, a changed source or catalogue, a changed lock
 * file, a dist/ deleted or built from other sources — builds again (`npm run build`) and writes a new stamp.
 *
 * `node --import tsx scripts/build-if-changed.ts [--check]`: `--check` only says whether a build is needed (exit 1
 * when it is).
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'

/** What the build reads: folders walked whole, and single files. */
export const INPUT_DIRS = ['src', 'machines', 'locales', 'public']
export const INPUT_FILES = [
  'index.html', 'login.html', 'vite.config.ts', 'lingui.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json',
  'scripts/vite-plugins.ts', 'scripts/griffel-extract.ts', 'scripts/icon-imports.ts',
]
/** The files whose size and mtime identify a build in dist/. */
export const BUILD_OUTPUTS = ['dist/index.html', 'dist/login.html']
export const STAMP_PATH = 'node_modules/.cache/bastion/build-stamp.json'

/** Files under the input folders that the build does not read: tests, and catalogues compiled from the .po files. */
function ignored(rel: string): boolean {
  return /\.test\.tsx?$/.test(rel) || /^(src\/)?locales\/(login\/)?[^/]+\.ts$/.test(rel)
}

function walk(root: string, dir: string, out: string[]): void {
  const abs = join(root, dir)
  if (!existsSync(abs)) return
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`
    if (entry.isDirectory()) walk(root, rel, out)
    else if (entry.isFile() && !ignored(rel)) out.push(rel)
  }
}

/** The digest of the build's inputs under `root`: every input path with its content, in a stable order. */
export function inputsDigest(root: string): string {
  const files: string[] = []
  for (const dir of INPUT_DIRS) walk(root, dir, files)
  for (const file of INPUT_FILES) if (existsSync(join(root, file))) files.push(file)
  files.sort()
  const hash = createHash('sha256')
  for (const file of files) {
    hash.update(file.split(sep).join('/')).update('\0')
    hash.update(createHash('sha256').update(readFileSync(join(root, file))).digest()).update('\0')
  }
  return hash.digest('hex')
}

/** The identity of the build in dist/ (undefined when a part is missing). */
export function buildIdentity(root: string): string | undefined {
  const parts: string[] = []
  for (const file of BUILD_OUTPUTS) {
    const path = join(root, file)
    if (!existsSync(path)) return undefined
    const st = statSync(path)
    parts.push(`${file}:${st.size}:${st.mtimeMs}`)
  }
  return parts.join(' ')
}

interface Stamp {
  inputs: string
  build: string
}

function readStamp(root: string): Stamp | undefined {
  try {
    return JSON.parse(readFileSync(join(root, STAMP_PATH), 'utf8')) as Stamp
  } catch {
    return undefined
  }
}

/** Why a build is needed, or undefined when dist/ was built from the current inputs. */
export function buildNeeded(root: string): string | undefined {
  const build = buildIdentity(root)
  if (!build) return 'no build in dist/'
  const stamp = readStamp(root)
  if (!stamp) return 'no record of what dist/ was built from'
  if (stamp.build !== build) return 'dist/ changed since the recorded build'
  if (stamp.inputs !== inputsDigest(root)) return 'the sources changed since the last build'
  return undefined
}

/** Records that dist/ is the build of the current inputs (after a successful build). */
export function writeStamp(root: string): void {
  const build = buildIdentity(root)
  if (!build) throw new Error('no build in dist/ to record')
  const path = join(root, STAMP_PATH)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, JSON.stringify({ inputs: inputsDigest(root), build } satisfies Stamp) + '\n')
}

function main(): void {
  const root = process.cwd()
  const reason = buildNeeded(root)
  if (process.argv.includes('--check')) {
    console.log(reason ? `build needed: ${reason}` : 'build is current')
    process.exit(reason ? 1 : 0)
  }
  if (!reason) {
    console.log(`  Console build is current (${relative(root, join(root, 'dist'))}/); not building again.`)
    return
  }
  console.log(`  Building the console: ${reason}.`)
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const result = spawnSync(npm, ['run', 'build'], { stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
  writeStamp(root)
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main()
