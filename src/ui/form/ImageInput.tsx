/**
 * An image field (OPTIONS type `image upload`): the current image, a button that picks a file (read as a data
 * URL: the server checks the content and the size again) and "Restore default" (sends null). Files that are not
 * images or are larger than MAX_IMAGE_BYTES are refused here with a message, and nothing changes.
 */
import { Button, Text, makeStyles, tokens } from '@fluentui/react-components'
import { ImageAddRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { useId, useRef, useState } from 'react'

/** The server's limit (server/settings/images.ts). */
export const MAX_IMAGE_BYTES = 512 * 1024
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,image/x-icon,image/vnd.microsoft.icon,.ico'

const useStyles = makeStyles({
  row: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  preview: {
    maxHeight: '64px', maxWidth: '240px', padding: tokens.spacingHorizontalXS, borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground3,
  },
  error: { color: tokens.colorPaletteRedForeground1 },
})

export interface ImageInputProps {
  value: string
  onChange: (value: string | null) => void
  disabled: boolean
  /** id of the field's label */
  labelledBy?: string
}

export function ImageInput({ value, onChange, disabled, labelledBy }: ImageInputProps) {
  const { t } = useLingui()
  const styles = useStyles()
  const input = useRef<HTMLInputElement>(null)
  const [error, setError] = useState('')
  const pickId = useId()
  const pick = (file: File | undefined) => {
    if (!file) return
    if (!file.type.startsWith('image/') && !file.name.toLowerCase().endsWith('.ico')) {
      setError(t`This file is not an image.`)
      return
    }
    if (file.size > MAX_IMAGE_BYTES) {
      setError(t`The image is too large: at most ${MAX_IMAGE_BYTES / 1024} KB.`)
      return
    }
    const reader = new FileReader()
    reader.onload = () => {
      setError('')
      onChange(String(reader.result))
    }
    reader.onerror = () => setError(t`The file could not be read.`)
    reader.readAsDataURL(file)
  }
  return (
    <div className={styles.row}>
      {value ? <img className={styles.preview} src={value} alt={t`Current image`} /> : <Text>{t`Default image`}</Text>}
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        aria-hidden
        tabIndex={-1}
        data-testid="image-file"
        onChange={(e) => {
          pick(e.target.files?.[0])
          e.target.value = ''
        }}
      />
      <Button id={pickId} icon={<ImageAddRegular />} disabled={disabled} aria-labelledby={labelledBy ? `${labelledBy} ${pickId}` : undefined} onClick={() => input.current?.click()}>
        {t`Choose image…`}
      </Button>
      <Button appearance="subtle" disabled={disabled} onClick={() => { setError(''); onChange(null) }}>{t`Restore default`}</Button>
      {error && <Text role="alert" className={styles.error}>{error}</Text>}
    </div>
  )
}
