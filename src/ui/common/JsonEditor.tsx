/** JSON text editing (spec §2.4): a monospace text area; invalid JSON is reported by the form's json rule. */
import { Textarea, makeStyles, tokens, type TextareaProps } from '@fluentui/react-components'

const useStyles = makeStyles({ code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 } })

export function JsonEditor(props: Omit<TextareaProps, 'onChange' | 'value'> & { value: string; onChange: (text: string) => void }) {
  const styles = useStyles()
  const { value, onChange, ...rest } = props
  return (
    <Textarea
      {...rest}
      textarea={{ className: styles.code, spellCheck: false }}
      resize="vertical"
      rows={props.rows ?? 6}
      value={value}
      onChange={(_, d) => onChange(d.value)}
    />
  )
}
