/**
 * The replay of an SSH session: asciinema-player (a lazy chunk with its stylesheet) over the asciicast the
 * server stores gzipped; the file is fetched once, gunzipped in the browser and handed to the player as data.
 * Download saves the stored file as it is (`<session>.cast.gz`).
 */
import { Button, MessageBar, MessageBarBody, Spinner, makeStyles, tokens } from '@fluentui/react-components'
import { ArrowDownloadRegular } from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import * as AsciinemaPlayer from 'asciinema-player'
import 'asciinema-player/dist/bundle/asciinema-player.css'
import { useEffect, useRef, useState } from 'react'
import { replayBytes, replayInfo, type ReplayInfo } from '../../../api/terminal.ts'
import { saveBlob } from '../../../ui/export/saveBlob.ts'

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  bar: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center' },
  player: { maxWidth: '1000px' },
})

async function gunzip(bytes: Uint8Array): Promise<string> {
  if (!(bytes[0] === 0x1f && bytes[1] === 0x8b)) return new TextDecoder().decode(bytes)
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Response(stream).text()
}

export function ReplayPlayer({ sessionId }: { sessionId: string }) {
  const { t } = useLingui()
  const styles = useStyles()
  const host = useRef<HTMLDivElement>(null)
  const [info, setInfo] = useState<ReplayInfo>()
  const [bytes, setBytes] = useState<Uint8Array>()
  const [failed, setFailed] = useState(false)

  useEffect(() => {
    let cancelled = false
    replayInfo(sessionId)
      .then(async (i) => {
        const b = await replayBytes(i.src)
        if (!cancelled) { setInfo(i); setBytes(b) }
      })
      .catch(() => { if (!cancelled) setFailed(true) })
    return () => { cancelled = true }
  }, [sessionId])

  useEffect(() => {
    const el = host.current
    if (!el || !bytes) return
    let player: { dispose: () => void } | undefined
    let cancelled = false
    void gunzip(bytes).then((data) => {
      if (cancelled) return
      player = AsciinemaPlayer.create({ data }, el, { fit: 'width', idleTimeLimit: 2, controls: true, autoPlay: true }) as { dispose: () => void }
    }, () => setFailed(true))
    return () => { cancelled = true; player?.dispose() }
  }, [bytes])

  if (failed) return <MessageBar intent="error"><MessageBarBody>{t`The replay could not be loaded.`}</MessageBarBody></MessageBar>
  return (
    <div className={styles.root}>
      <div className={styles.bar}>
        <Button icon={<ArrowDownloadRegular />} disabled={!bytes}
          onClick={() => bytes && saveBlob(new Blob([bytes as BlobPart], { type: 'application/gzip' }), `${sessionId}.cast.gz`)}>
          {t`Download`}
        </Button>
        {info && <span>{info.user} → {info.asset}</span>}
      </div>
      {!bytes && <Spinner size="small" label={t`Loading the replay…`} />}
      <div ref={host} className={styles.player} data-testid="replay-player" aria-label={t`Session replay`} role="region" />
    </div>
  )
}
