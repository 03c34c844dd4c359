import { makeStyles, tokens } from '@fluentui/react-components'

const useStyles = makeStyles({
  circle: {
    display: 'inline-flex', alignItems: 'center', justifyContent: 'center', width: '24px', height: '24px', borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground6, color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase100,
    fontWeight: tokens.fontWeightSemibold, lineHeight: 1, flexShrink: 0, userSelect: 'none',
    // drawn, not text: the button's accessible name ("User menu: <name>") then holds all its visible text (axe's
    // label-content-name-mismatch failed for names whose initials are not in the name, e.g. "Profile Person" → PP)
    '::before': { content: 'attr(data-initials)' },
  },
})

/**
 * The first letters of the first and last words of a name ("Ada Lovelace" → "AL"; one word → its first letter;
 * CJK names → their first character).
 */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  if (words.length === 0) return ''
  const first = [...words[0]!][0]!
  if (words.length === 1 || /[\u3000-\u9fff\uac00-\ud7af]/.test(first)) return first.toUpperCase()
  return `${first}${[...words[words.length - 1]!][0]!}`.toUpperCase()
}

/**
 * The user's initials in a neutral circle, as Fluent's Avatar shows them: the header's one avatar without the
 * Avatar package (and the Popover and presence badges it brings) in the first screen's code.
 */
export function Initials({ name }: { name: string }) {
  const styles = useStyles()
  return <span className={styles.circle} aria-hidden="true" data-initials={initialsOf(name)} />
}
