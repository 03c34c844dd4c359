import { resolveStyleRulesForSlots, shorthands } from '@griffel/core'
import { tokens } from '@fluentui/react-theme'
import { beforeAll, describe, expect, it } from 'vitest'
import { extractModule, inlineTokens, loadStyleCompiler, stylesheet, type StyleCompiler } from './griffel-extract.ts'

/** A module as Fluent ships it: pre-compiled rules, literal. */
const FLUENT = `import { __styles, __resetStyles, mergeClasses } from "@griffel/react";
const useRoot = /*#__PURE__*/__resetStyles("r1", null, { r: [".r1{display:flex;}"], s: ["@media (forced-colors: active){.r1{color:red;}}"] });
const useLegacy = /*#__PURE__*/__resetStyles("r2", "r2r", [".r2{margin:0;}", ".r2r{margin:1px;}"]);
const useStyles = /*#__PURE__*/__styles({ root: { sj55zd: "f1" } }, { d: [".f1{color:blue;}", [".f2{padding:0;}", { p: -1 }]], h: [".f3:hover{color:red;}"] });
export const x = [useRoot, useLegacy, useStyles, mergeClasses];`

describe('Fluent’s pre-compiled styles', () => {
  it('leave the module: the calls become the extraction forms, the rules are returned', () => {
    const out = extractModule(FLUENT, 'fluent.js')!
    expect(out.kept).toBe(0)
    expect(out.code).not.toMatch(/\{display:flex;\}|color:blue|margin:0/)
    expect(out.code).toContain('import { __resetCSS as __bastion__resetCSS, __css as __bastion__css } from "@griffel/react"')
    expect(out.code).toContain('__bastion__resetCSS("r1", null)')
    expect(out.code).toContain('__bastion__resetCSS("r2", "r2r")')
    expect(out.code).toContain('__bastion__css({ root: { sj55zd: "f1" } })')
    expect(out.rules).toEqual([
      { r: ['.r1{display:flex;}'], s: ['@media (forced-colors: active){.r1{color:red;}}'] },
      { r: ['.r2{margin:0;}', '.r2r{margin:1px;}'] }, // the legacy array form is the reset bucket
      { d: ['.f1{color:blue;}', ['.f2{padding:0;}', { p: -1 }]], h: ['.f3:hover{color:red;}'] },
    ])
  })

  it('a call whose rules are not literal stays at run time, and is counted', () => {
    const out = extractModule(`import { __styles } from "@griffel/react";\nconst rules = {};\nexport const a = __styles({ root: {} }, rules);`, 'm.js')
    expect(out).toBeUndefined() // nothing taken out: the module is left as it is
    const mixed = extractModule(`${FLUENT}\nconst rules = {};\nexport const b = __styles({ root: {} }, rules);`, 'm.js')!
    expect(mixed.kept).toBe(1)
    expect(mixed.code).toContain('__styles({ root: {} }, rules)')
  })

  it('modules without Griffel calls are not touched', () => {
    expect(extractModule('export const __stylesheet = 1', 'a.js')).toBeUndefined()
    expect(extractModule('import { __styles } from "elsewhere"; __styles({}, {d: []})', 'b.js')).toBeUndefined()
  })
})

describe('the console’s own makeStyles', () => {
  let compiler: StyleCompiler
  beforeAll(async () => {
    compiler = await loadStyleCompiler()
  })

  it('are compiled by Griffel’s own compiler: the same class names as at run time, no compiler left in the module', () => {
    const code = `import { makeStyles, tokens as t, shorthands } from '@fluentui/react-components';
const GAP = '8px';
const EDGE = \`\${GAP} solid \${t.colorNeutralStroke1}\`;
export const useStyles = makeStyles({ root: { display: 'flex', gap: GAP, borderBottom: EDGE, ...shorthands.padding('4px'), ':hover': { color: t.colorBrandForeground1 } } });`
    const out = extractModule(code, 'src/x.tsx', compiler)!
    expect(out.kept).toBe(0)
    expect(out.code).not.toContain('makeStyles(')
    const [classes, rules] = resolveStyleRulesForSlots({
      root: { display: 'flex', gap: '8px', borderBottom: `8px solid ${tokens.colorNeutralStroke1}`, ...shorthands.padding('4px'), ':hover': { color: tokens.colorBrandForeground1 } },
    })
    expect(out.code).toContain(`__bastion__css(${JSON.stringify(classes)})`)
    expect(out.rules).toEqual([rules])
  })

  it('a style that reads anything else (a function, a value from another module) stays at run time', () => {
    const code = `import { makeStyles } from '@fluentui/react-components';
import { width } from './elsewhere.ts';
export const a = makeStyles({ root: { width } });
export const b = makeStyles({ root: { color: (() => 'red')() } });
export const c = makeStyles({ root: { color: 'red' } });`
    const out = extractModule(code, 'src/y.tsx', compiler)!
    expect(out.kept).toBe(2)
    expect(out.code).toContain('makeStyles({ root: { width } })')
    expect(out.code).not.toContain("makeStyles({ root: { color: 'red' } })")
  })
})

describe('the stylesheet', () => {
  it('follows Griffel’s sheet order — bucket, then condition, then priority — with each rule once', () => {
    const css = stylesheet([
      { h: ['.h1:hover{}'], d: ['.d1{}', ['.d0{}', { p: -1 }]], m: [['@media (min-width: 800px){.m2{}}', { m: '(min-width: 800px)' }]] },
      { r: ['.r1{}'], d: ['.d1{}', '.d2{}'], a: ['.a1:active{}'], m: [['@media (min-width: 600px){.m1{}}', { m: '(min-width: 600px)' }]], k: ['@keyframes k{}'] },
    ])
    expect(css.split('\n')).toEqual([
      '.r1{}',
      '.d0{}', // priority -1 before the bucket's default sheet
      '.d1{}.d2{}',
      '.h1:hover{}',
      '.a1:active{}',
      '@keyframes k{}',
      '@media (min-width: 600px){.m1{}}',
      '@media (min-width: 800px){.m2{}}',
    ])
  })

  it('refuses a bucket it does not know (a new Griffel would need this plugin looked at)', () => {
    expect(() => stylesheet([{ z: ['.z{}'] }])).toThrow(/unknown Griffel bucket "z"/)
  })
})

describe('tokens read at run time', () => {
  const values = tokens as unknown as Record<string, unknown>

  it('become the literal each stands for, and nothing reads the object any more', () => {
    const code = `import { Button, tokens as t } from '@fluentui/react-components';
const o = { tokens: 1, [t.spacingHorizontalS]: 2 };
export const color = (dark) => dark ? t.colorNeutralBackground2 : \`1px solid \${t.colorNeutralStroke1}\`;
export const z = o.tokens + t.zIndexPopup;`
    const out = inlineTokens(code, 'src/a.tsx', values)!
    expect(out.replaced).toBe(4)
    expect(out.code).not.toMatch(/\bt\./)
    expect(out.code).toContain(JSON.stringify(tokens.colorNeutralBackground2))
    expect(out.code).toContain(JSON.stringify(tokens.zIndexPopup))
    expect(out.code).toContain('o.tokens')
    // the module still runs: the object keeps its own "tokens" key
    expect(out.code).toContain('{ tokens: 1,')
  })

  it('a module that uses the object any other way is left as it is', () => {
    const passes = `import { tokens } from '@fluentui/react-theme';\nexport const a = tokens.colorNeutralForeground1;\nexport const all = tokens;`
    const computed = `import { tokens } from '@fluentui/react-components';\nexport const a = (k) => tokens[k];`
    const shadowed = `import { tokens } from '@fluentui/react-components';\nexport const a = tokens.colorNeutralForeground1;\nexport function f(tokens) { return tokens.x }`
    const unknown = `import { tokens } from '@fluentui/react-components';\nexport const a = tokens.notAToken;`
    const elsewhere = `import { tokens } from './my-tokens.ts';\nexport const a = tokens.colorNeutralForeground1;`
    for (const code of [passes, computed, shadowed, unknown, elsewhere]) expect(inlineTokens(code, 'm.js', values)).toBeUndefined()
  })
})
