import { dirname, join } from 'node:path'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { iconFamilies, splitIconImports } from './icon-imports.ts'

const atoms = join(dirname(createRequire(import.meta.url).resolve('@fluentui/react-icons/package.json')), 'lib', 'atoms', 'svg')

describe('icon imports by family (first visit: no shared icon module as a file of its own)', () => {
  const families = iconFamilies(atoms)

  it('finds each icon family module in the package', () => {
    expect(families.get('PeopleRegular')).toBe('people')
    expect(families.get('ArrowDownloadRegular')).toBe('arrow-download')
    expect(families.has('FluentIcon')).toBe(false)
  })

  it('imports icons from their family and keeps types and helpers on the root', () => {
    const code = [
      "import { type FluentIcon, PeopleRegular, bundleIcon, PeopleFilled, ArrowDownloadRegular as Down } from '@fluentui/react-icons'",
      "import { Button } from '@fluentui/react-components'",
    ].join('\n')
    expect(splitIconImports(code, families)).toBe([
      "import { type FluentIcon, bundleIcon } from '@fluentui/react-icons';",
      "import { PeopleRegular, PeopleFilled } from '@fluentui/react-icons/svg/people';",
      "import { ArrowDownloadRegular as Down } from '@fluentui/react-icons/svg/arrow-download';",
      "import { Button } from '@fluentui/react-components'",
    ].join('\n'))
  })

  it('leaves a module without icon imports as it is', () => {
    const code = "import type { FluentIcon } from '@fluentui/react-icons'\nexport const x = 1"
    expect(splitIconImports(code, families)).toBe(code)
  })
})
