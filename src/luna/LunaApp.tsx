/**
 * The web terminal (`/luna/`): the granted asset tree on the left, a tab per terminal session on the right, and a
 * toolbar (font size, copy and paste as the session's permission allows, the console's light / dark theme and
 * language). Opening an asset creates a connection token (the same call as My assets → Connect) and a tab on it;
 * `/luna/connect?token=…` starts with a tab on the given token.
 */
import {
  Button, createLightTheme, FluentProvider, makeStyles, mergeClasses, MessageBar, MessageBarBody, Select, Tab, TabList, Text, tokens,
} from '@fluentui/react-components'
import {
  ClipboardPasteRegular, CopyRegular, DismissRegular, FontDecreaseRegular, FontIncreaseRegular, PanelLeftRegular, ShareRegular, WeatherMoonRegular,
  WeatherSunnyRegular,
} from '@fluentui/react-icons'
import { useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react'
import { BRAND_GREEN } from '../app/brand.ts'
import { darkTheme } from '../app/darkTheme.ts'
import { LOCALES, switchLocale, type Locale } from '../app/i18n.ts'
import { setThemeMode, useThemeMode } from '../app/themeMode.ts'
import { createConnectionTokenReviewed, grantedAsset, type MyAssetItem, type PermedAccount } from '../api/perms.ts'
import type { SessionParticipant } from '../api/terminal.ts'
import { describeError } from '../ui/common/errors.ts'
import { AccountDialog } from './AccountDialog.tsx'
import { AssetPanel } from './AssetPanel.tsx'
import type { LunaRoute } from './route.ts'
import { phaseOf, TerminalTab, type TerminalPhase, type TerminalSnapshot, type TerminalTabHandle } from './TerminalTab.tsx'

// Sharing and joining are not on the web terminal's first load (its budget): their own chunks.
const JoinView = lazy(() => import('./JoinView.tsx').then((m) => ({ default: m.JoinView })))
const MonitorView = lazy(() => import('./MonitorView.tsx').then((m) => ({ default: m.MonitorView })))
const ShareDialog = lazy(() => import('./ShareDialog.tsx').then((m) => ({ default: m.ShareDialog })))

const FONT_KEY = 'luna.fontSize'
const FONT_MIN = 10
const FONT_MAX = 24
/** A token made by the tree is used at once: it need not live long. */
const TOKEN_LIFETIME_MS = 5 * 60_000

const ENDONYMS: Record<Locale, string> = { zh: '中文', en: 'English', ja: '日本語' }
const HTML_LANG: Record<Locale, string> = { zh: 'zh-CN', en: 'en', ja: 'ja' }
const isLocale = (v: string | undefined): v is Locale => (LOCALES as readonly string[]).includes(v ?? '')

function readFontSize(): number {
  const n = Number(typeof localStorage === 'undefined' ? NaN : localStorage.getItem(FONT_KEY))
  return Number.isInteger(n) && n >= FONT_MIN && n <= FONT_MAX ? n : 14
}

const useStyles = makeStyles({
  provider: { height: '100%' },
  app: { display: 'grid', gridTemplateRows: 'auto minmax(0, 1fr)', height: '100%', backgroundColor: tokens.colorNeutralBackground2 },
  bar: {
    display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'wrap',
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`, borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
  },
  title: { fontWeight: tokens.fontWeightSemibold, marginInlineEnd: tokens.spacingHorizontalM },
  grow: { flexGrow: 1 },
  body: { display: 'grid', gridTemplateColumns: 'minmax(240px, 300px) minmax(0, 1fr)', minHeight: 0 },
  bodyFull: { gridTemplateColumns: 'minmax(0, 1fr)' },
  side: { borderRight: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1, minHeight: 0, overflow: 'hidden' },
  main: { display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0, backgroundColor: tokens.colorNeutralBackground1 },
  tabs: { overflowX: 'auto', flexShrink: 0, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  sessions: { flexGrow: 1, minHeight: 0 },
  empty: { padding: tokens.spacingHorizontalXXL, color: tokens.colorNeutralForeground3 },
  fontSize: { minWidth: '2.5em', textAlign: 'center' },
  dot: { display: 'inline-block', width: '8px', height: '8px', borderRadius: '50%', marginInlineEnd: tokens.spacingHorizontalXS },
  open: { backgroundColor: tokens.colorPaletteGreenBackground3 },
  pending: { backgroundColor: tokens.colorPaletteYellowBackground3 },
  ended: { backgroundColor: tokens.colorNeutralForeground4 },
})

/** Narrow screens: the tree covers the terminal while it is shown. */
const useNarrowStyles = makeStyles({
  body: { '@media (max-width: 720px)': { gridTemplateColumns: 'minmax(0, 1fr)' } },
  side: { '@media (max-width: 720px)': { gridRow: 1, gridColumn: 1, zIndex: 1 } },
  main: { '@media (max-width: 720px)': { gridRow: 1, gridColumn: 1 } },
})

interface TabInfo {
  key: string
  token: string
  title: string
  phase: TerminalPhase
  copy: boolean
  paste: boolean
  share: boolean
  session?: string
}

let nextKey = 1

export function LunaApp({ route }: { route: LunaRoute }) {
  const { t, i18n } = useLingui()
  const styles = useStyles()
  const narrow = useNarrowStyles()
  const { scheme } = useThemeMode()
  const theme = useMemo(() => (scheme === 'dark' ? darkTheme() : createLightTheme(BRAND_GREEN)), [scheme])
  const [tabs, setTabs] = useState<TabInfo[]>(() => route.token
    ? [{ key: `t${nextKey++}`, token: route.token, title: t`Terminal`, phase: 'connecting', copy: false, paste: false, share: false }]
    : [])
  const [active, setActive] = useState<string | undefined>(tabs[0]?.key)
  const [fontSize, setFontSize] = useState(readFontSize)
  const [panel, setPanel] = useState(() => !route.token && !route.share && !route.monitor && (typeof window === 'undefined' || window.innerWidth > 720))
  const [opening, setOpening] = useState<string | undefined>()
  const [problem, setProblem] = useState<string | undefined>()
  const [choosing, setChoosing] = useState<{ asset: MyAssetItem; accounts: PermedAccount[] } | undefined>()
  const handles = useRef(new Map<string, TerminalTabHandle>())
  const [sharing, setSharing] = useState(false)
  const [participants, setParticipants] = useState<Record<string, SessionParticipant[]>>({})
  const participantsOf = useCallback((key: string) => (list: SessionParticipant[]) => setParticipants((all) => ({ ...all, [key]: list })), [])
  const current = tabs.find((x) => x.key === active)

  useEffect(() => {
    document.title = current ? `${current.title} · ${t`Web terminal`}` : t`Web terminal`
  }, [current, t])

  useEffect(() => {
    localStorage.setItem(FONT_KEY, String(fontSize))
  }, [fontSize])

  // Leaving the page ends its sessions (a reload or a closed browser tab is not a dropped network).
  useEffect(() => {
    const end = () => handles.current.forEach((h) => h.close())
    window.addEventListener('pagehide', end)
    return () => window.removeEventListener('pagehide', end)
  }, [])

  const onTabChange = useCallback((key: string, snapshot: TerminalSnapshot) => {
    const session = snapshot.context.session
    setTabs((list) => list.map((x) => x.key !== key ? x : {
      ...x,
      phase: phaseOf(snapshot),
      title: session ? `${session.asset.name} (${session.account.username || session.account.name})` : x.title,
      copy: session?.actions.copy === true,
      paste: session?.actions.paste === true,
      share: session?.actions.share === true,
      session: session?.id,
    }))
  }, [])

  const addTab = (token: string, title: string) => {
    const key = `t${nextKey++}`
    setTabs((list) => [...list, { key, token, title, phase: 'connecting', copy: false, paste: false, share: false }])
    setActive(key)
    if (window.innerWidth <= 720) setPanel(false)
  }

  const connect = async (asset: MyAssetItem, account: PermedAccount, inputUsername = '') => {
    setChoosing(undefined)
    setOpening(asset.id)
    try {
      // under a login review the token waits for its ticket: the tab shows the wait, its reviewers and Cancel
      const token = await createConnectionTokenReviewed({
        asset: asset.id, account: account.alias, protocol: 'ssh', is_reusable: false,
        date_expired: new Date(Date.now() + TOKEN_LIFETIME_MS).toISOString(),
        ...(account.alias === '@INPUT' ? { input_username: inputUsername.trim() } : {}),
      })
      addTab(String(token.id), asset.name)
    } catch (e) {
      setProblem(describeError(e))
    } finally {
      setOpening(undefined)
    }
  }

  const open = async (asset: MyAssetItem) => {
    setProblem(undefined)
    setOpening(asset.id)
    try {
      const granted = await grantedAsset(asset.id)
      const accounts = granted.permed_accounts.filter((a) => a.actions.some((x) => x.value === 'connect'))
      setOpening(undefined)
      if (!granted.permed_protocols.some((p) => p.name === 'ssh')) setProblem(t`${asset.name} has no SSH protocol granted: the web terminal speaks SSH only.`)
      else if (accounts.length === 0) setProblem(t`No account of ${asset.name} is granted with the connect action.`)
      else if (accounts.length === 1) await connect(asset, accounts[0]!)
      else setChoosing({ asset, accounts })
    } catch (e) {
      setOpening(undefined)
      setProblem(describeError(e))
    }
  }

  const closeTab = (key: string) => {
    handles.current.get(key)?.close()
    const rest = tabs.filter((x) => x.key !== key)
    setTabs(rest)
    if (active === key) setActive(rest.at(-1)?.key)
  }

  const withHandle = (run: (h: TerminalTabHandle) => Promise<boolean>, failure: string) => {
    const handle = active ? handles.current.get(active) : undefined
    if (!handle) return
    run(handle).catch(() => setProblem(failure)).finally(() => handle.focus())
  }

  const language: Locale = isLocale(i18n.locale) ? i18n.locale : 'en'
  const onLanguage = (e: ChangeEvent<HTMLSelectElement>) => {
    if (isLocale(e.target.value)) void switchLocale(e.target.value)
  }

  return (
    <FluentProvider theme={theme} className={styles.provider} style={{ colorScheme: scheme }}>
      <div className={styles.app}>
        <header className={styles.bar}>
          {!route.share && !route.monitor && <Button appearance="subtle" icon={<PanelLeftRegular />} aria-pressed={panel} aria-label={t`Asset tree`} title={t`Asset tree`} onClick={() => setPanel(!panel)} />}
          <Text as="h1" size={300} className={styles.title}>{t`Web terminal`}</Text>
          <span className={styles.grow} />
          <Button appearance="subtle" icon={<FontDecreaseRegular />} aria-label={t`Smaller font`} title={t`Smaller font`} disabled={fontSize <= FONT_MIN} onClick={() => setFontSize(fontSize - 1)} />
          <Text className={styles.fontSize} aria-label={t`Font size ${fontSize}`}>{fontSize}</Text>
          <Button appearance="subtle" icon={<FontIncreaseRegular />} aria-label={t`Larger font`} title={t`Larger font`} disabled={fontSize >= FONT_MAX} onClick={() => setFontSize(fontSize + 1)} />
          <Button appearance="subtle" icon={<CopyRegular />} aria-label={t`Copy the selection`} title={current && !current.copy ? t`Copying is not permitted on this session` : t`Copy the selection`}
            disabled={!current?.copy} onClick={() => withHandle((h) => h.copy(), t`Could not copy`)} />
          <Button appearance="subtle" icon={<ClipboardPasteRegular />} aria-label={t`Paste`} title={current && !current.paste ? t`Pasting is not permitted on this session` : t`Paste`}
            disabled={!current?.paste || current.phase !== 'open'} onClick={() => withHandle((h) => h.paste(), t`Could not paste`)} />
          <Button appearance="subtle" icon={scheme === 'dark' ? <WeatherSunnyRegular /> : <WeatherMoonRegular />}
            aria-label={scheme === 'dark' ? t`Light theme` : t`Dark theme`} title={scheme === 'dark' ? t`Light theme` : t`Dark theme`}
            onClick={() => setThemeMode(scheme === 'dark' ? 'light' : 'dark')} />
          <Select size="small" aria-label={t`Language`} value={language} onChange={onLanguage}>
            {LOCALES.map((l) => <option key={l} value={l} lang={HTML_LANG[l]}>{ENDONYMS[l]}</option>)}
          </Select>
        </header>
        {route.share || route.monitor ? (
          <main className={styles.main}>
            <Suspense fallback={<div role="status">{t`Loading…`}</div>}>
              {route.share
                ? <JoinView shareId={route.share} scheme={scheme} fontSize={fontSize} />
                : <MonitorView sessionId={route.monitor!} scheme={scheme} fontSize={fontSize} />}
            </Suspense>
          </main>
        ) : (
        <div className={mergeClasses(styles.body, narrow.body, !panel && styles.bodyFull)}>
          {panel && (
            <nav className={mergeClasses(styles.side, narrow.side)} aria-label={t`Assets`}>
              <AssetPanel onOpen={(a) => void open(a)} busy={opening} />
            </nav>
          )}
          <main className={mergeClasses(styles.main, narrow.main)}>
            {problem && <MessageBar intent="error"><MessageBarBody role="alert">{problem}</MessageBarBody></MessageBar>}
            {tabs.length > 0 && (
              <div className={styles.tabs}>
                <TabList size="small" selectedValue={active} onTabSelect={(_, d) => setActive(String(d.value))} aria-label={t`Sessions`}>
                  {tabs.map((x) => (
                    <Tab key={x.key} value={x.key}>
                      <span aria-hidden className={mergeClasses(styles.dot, x.phase === 'open' ? styles.open : x.phase === 'closed' || x.phase === 'failed' ? styles.ended : styles.pending)} />
                      {x.title}
                    </Tab>
                  ))}
                </TabList>
              </div>
            )}
            {current && (
              <div className={styles.bar}>
                <Text size={200}>{current.title}</Text>
                <span className={styles.grow} />
                {current.phase === 'open' && current.share && current.session && (
                  <Button size="small" icon={<ShareRegular />} onClick={() => setSharing(true)}>
                    {participants[current.key]?.length ? t`Share (${participants[current.key]!.length} in the session)` : t`Share`}
                  </Button>
                )}
                {current.phase === 'closed' || current.phase === 'failed'
                  ? <Button size="small" icon={<DismissRegular />} onClick={() => closeTab(current.key)}>{t`Close tab`}</Button>
                  : <Button size="small" icon={<DismissRegular />} onClick={() => handles.current.get(current.key)?.close()}>{t`End session`}</Button>}
              </div>
            )}
            <div className={styles.sessions}>
              {tabs.map((x) => (
                <TerminalTab
                  key={x.key}
                  ref={(h) => { if (h) handles.current.set(x.key, h); else handles.current.delete(x.key) }}
                  token={x.token}
                  active={x.key === active}
                  fontSize={fontSize}
                  scheme={scheme}
                  onChange={(snapshot) => onTabChange(x.key, snapshot)}
                  onParticipants={participantsOf(x.key)}
                />
              ))}
              {tabs.length === 0 && <Text as="p" className={styles.empty}>{t`Choose an asset to open a terminal on it.`}</Text>}
            </div>
          </main>
        </div>
        )}
      </div>
      {sharing && current?.session && (
        <Suspense fallback={null}>
          <ShareDialog sessionId={current.session} participants={participants[current.key]} onParticipants={participantsOf(current.key)} onClose={() => setSharing(false)} />
        </Suspense>
      )}
      {choosing && (
        <AccountDialog
          assetName={choosing.asset.name}
          accounts={choosing.accounts}
          onChoose={(account, username) => void connect(choosing.asset, account, username)}
          onCancel={() => setChoosing(undefined)}
        />
      )}
    </FluentProvider>
  )
}
