/**
 * Settings → Tools: network checks run from the server (TCP ping, telnet with the service's banner, a port scan),
 * as JumpServer's Tools page offers them. The output is the server's, line by line; bad input shows on its field.
 * Running a check needs `settings.change_setting` (the server checks it first).
 */
import { Button, Field, Input, Spinner, Tab, TabList, makeStyles, tokens } from '@fluentui/react-components'
import { useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { ApiError, errorText } from '../../api/client.ts'
import { runNetTool, type NetTool } from '../../api/settingsTools.ts'
import { useAccess } from '../../ui/common/access.tsx'
import { describeError } from '../../ui/common/errors.ts'
import { Page } from '../../ui/common/Page.tsx'
import { hasPerm } from '../../ui/common/perms.ts'

const useStyles = makeStyles({
  form: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'flex-end', marginTop: tokens.spacingVerticalM },
  output: {
    marginTop: tokens.spacingVerticalM, minHeight: '8em', padding: tokens.spacingHorizontalM, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere',
    fontFamily: tokens.fontFamilyMonospace, backgroundColor: tokens.colorNeutralBackground3, borderRadius: tokens.borderRadiusMedium,
  },
})

export function ToolsPage() {
  const { t } = useLingui()
  const styles = useStyles()
  const access = useAccess()
  const canRun = hasPerm(access.perms, 'settings.change_setting')
  const [tool, setTool] = useState<NetTool>('telnet')
  const [values, setValues] = useState<Record<string, string>>({ dest_ip: '', dest_port: '', dest_ports: '22,80,443,3389', count: '4', timeout: '3' })
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [output, setOutput] = useState<string[]>([])
  const [busy, setBusy] = useState(false)
  const set = (k: string) => (_: unknown, d: { value: string }) => setValues((v) => ({ ...v, [k]: d.value }))

  const fields: [string, string][] = [
    ['dest_ip', t`Host or IP address`],
    ...(tool === 'nmap' ? [['dest_ports', t`Ports`] as [string, string]] : [['dest_port', t`Port`] as [string, string]]),
    ...(tool === 'ping' ? [['count', t`Count`] as [string, string]] : []),
    ['timeout', t`Timeout (seconds)`],
  ]

  const run = async () => {
    setBusy(true)
    setErrors({})
    setOutput([])
    try {
      const body = Object.fromEntries(fields.map(([k]) => [k, values[k]?.trim() ?? '']))
      setOutput((await runNetTool(tool, body)).lines)
    } catch (e) {
      const fe = e instanceof ApiError ? e.fieldErrors : undefined
      if (fe) setErrors(Object.fromEntries(Object.entries(fe).map(([k, v]) => [k, errorText(v)])))
      else setOutput([describeError(e)])
    } finally {
      setBusy(false)
    }
  }

  return (
    <Page title={t`Tools`} back={false} boxed help={canRun ? t`Checks run from the server: whether it reaches a host and port.` : t`Running these checks needs the permission to change the settings.`}>
      <TabList selectedValue={tool} onTabSelect={(_, d) => { setTool(d.value as NetTool); setErrors({}); setOutput([]) }} aria-label={t`Tools`}>
        <Tab value="ping">{t`Ping (TCP)`}</Tab>
        <Tab value="telnet">{t`Telnet`}</Tab>
        <Tab value="nmap">{t`Port scan`}</Tab>
      </TabList>
      <form className={styles.form} onSubmit={(e) => { e.preventDefault(); void run() }}>
        {fields.map(([k, label]) => (
          <Field key={k} label={label} validationMessage={errors[k]} required={k === 'dest_ip' || k === 'dest_ports'}>
            <Input value={values[k] ?? ''} onChange={set(k)} disabled={!canRun} />
          </Field>
        ))}
        <Button type="submit" appearance="primary" disabled={!canRun || busy} icon={busy ? <Spinner size="tiny" /> : undefined}>{t`Run`}</Button>
      </form>
      <pre className={styles.output} aria-live="polite" aria-label={t`Output`} data-testid="tool-output">{output.join('\n')}</pre>
    </Page>
  )
}
