/**
 * The user's own preferences `GET|PUT|PATCH|OPTIONS /api/v1/users/preference/?category=lina|luna|koko` (JumpServer
 * 3.2's PreferenceApi: one object per category, its keys groups of values, stored per user in user_preferences).
 * `luna` and `koko` carry the web terminal's graphical (RDP) and character (SSH) client options with JumpServer's
 * names and choices; `lina` (ours: JumpServer 3.2 keeps these in the browser) the console's language, theme,
 * default view and time zone, so they follow the user to a new browser. Any signed-in user, own rows only; every
 * value is checked with the engine's field rules (400 with field errors, nothing saved).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sql } from 'kysely'
import { fieldInfo } from '../engine/fields.ts'
import { PARSES } from '../engine/metadata.ts'
import { pyType } from '../engine/messages.ts'
import { parseObject } from '../engine/parse.ts'
import type { FieldDef } from '../engine/types.ts'
import { requireUser } from '../http/context.ts'
import { validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import type { Values } from '../http/body.ts'

export const PREFERENCE_API = '/api/v1/users/preference/'

const choice = (name: string, label: string, dflt: string | number, choices: [string | number, string][], extra: Partial<FieldDef> = {}): FieldDef =>
  ({ name, type: 'choice', label, default: dflt, required: false, choices: choices.map(([value, l]) => ({ value, label: l })), ...extra })
const bool = (name: string, label: string, dflt: boolean, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type: 'boolean', label, default: dflt, required: false, ...extra })
const group = (name: string, label: string, children: FieldDef[]): FieldDef => ({
  name, type: 'nested', label, required: false, children,
  default: Object.fromEntries(children.map((c) => [c.name, c.default])),
})

function validTimeZone(v: unknown): string | undefined {
  if (v === '') return undefined
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: String(v) })
    return undefined
  } catch {
    return 'Not a known time zone.'
  }
}

export const PREFERENCES: Record<string, { title: string; fields: FieldDef[] }> = {
  lina: {
    title: 'Console preferences',
    fields: [group('basic', 'Basic', [
      choice('lang', 'Language', 'auto', [['auto', 'Browser language'], ['zh', '简体中文'], ['en', 'English'], ['ja', '日本語']]),
      choice('theme', 'Theme', 'system', [['system', 'Follow the system'], ['light', 'Light'], ['dark', 'Dark']]),
      choice('default_view', 'Default view', 'auto', [['auto', 'Last used'], ['console', 'Console'], ['audit', 'Audit'], ['workbench', 'Workbench']]),
      { name: 'time_zone', type: 'string', label: 'Time zone', default: '', required: false, max_length: 64,
        help_text: 'Empty: the browser\'s time zone.', validate: (v) => { const e = validTimeZone(v); return e } },
    ])],
  },
  luna: {
    title: 'Web terminal preferences',
    fields: [
      group('basic', 'Basic', [
        bool('is_async_asset_tree', 'Async loading of asset tree', true),
        choice('connect_default_open_method', 'Default open method', 'new', [['current', 'Current window'], ['new', 'New window']]),
      ]),
      group('graphics', 'Graphics (RDP)', [
        choice('rdp_resolution', 'RDP resolution', 'Auto', [['Auto', 'Auto'], ['1024x768', '1024x768'], ['1366x768', '1366x768'],
          ['1600x900', '1600x900'], ['1920x1080', '1920x1080']]),
        choice('keyboard_layout', 'Keyboard layout', 'en-us-qwerty', [['en-us-qwerty', 'US English (Qwerty)'], ['en-gb-qwerty', 'UK English (Qwerty)'],
          ['de-de-qwertz', 'German (Qwertz)'], ['fr-fr-azerty', 'French (Azerty)'], ['ja-jp-qwerty', 'Japanese (Qwerty)'], ['zh-cn-qwerty', 'Chinese (Qwerty)']]),
        { name: 'rdp_client_option', type: 'list', label: 'RDP client option', default: [], required: false,
          choices: [{ value: 'full_screen', label: 'Full screen' }, { value: 'multi_screen', label: 'Multi screen' }, { value: 'drives_redirect', label: 'Drives redirect' }],
          child: { name: 'option', type: 'choice', label: 'RDP client option', choices: [{ value: 'full_screen', label: 'Full screen' }, { value: 'multi_screen', label: 'Multi screen' }, { value: 'drives_redirect', label: 'Drives redirect' }] } },
        choice('rdp_color_quality', 'RDP color quality', '32', [['32', 'High (32 bit)'], ['24', 'Medium (24 bit)'], ['16', 'Low (16 bit)']]),
        choice('rdp_smart_size', 'RDP smart size', '0', [['0', 'Disable'], ['1', 'Enable']]),
        choice('applet_connection_method', 'Remote application connection method', 'web', [['web', 'Web'], ['client', 'Client']]),
      ]),
      group('command_line', 'Command line (SSH)', [
        { name: 'character_terminal_font_size', type: 'integer', label: 'Character terminal font size', default: 14, required: false, min_value: 8, max_value: 48 },
        bool('is_backspace_as_ctrl_h', 'Backspace as Ctrl+H', false),
        bool('is_right_click_quickly_paste', 'Right click quickly paste', false),
      ]),
    ],
  },
  koko: {
    title: 'SSH terminal preferences',
    fields: [group('basic', 'Basic', [
      choice('file_name_conflict_resolution', 'File name conflict resolution', 'replace', [['replace', 'Replace'], ['skip', 'Skip'], ['rename', 'Rename']]),
      choice('terminal_theme_name', 'Terminal theme name', 'Default', [['Default', 'Default'], ['Dracula', 'Dracula'], ['Solarized Dark', 'Solarized Dark'],
        ['Solarized Light', 'Solarized Light'], ['Tango', 'Tango']]),
    ])],
  },
}

function categoryOf(req: FastifyRequest): { name: string; title: string; fields: FieldDef[] } {
  const raw = (req.query as Record<string, unknown> | undefined)?.category
  const name = typeof raw === 'string' && raw !== '' ? raw : 'lina'
  const cat = Object.hasOwn(PREFERENCES, name) ? PREFERENCES[name] : undefined
  if (!cat) throw validationError({ category: [tr(req.ctx.lang, '"{input}" is not a valid choice.', { input: name.slice(0, 64) })] })
  return { name, ...cat }
}

/** A user's preferences of one category, defaults filled (also for the server's own use). */
export async function readPreferences(db: FastifyRequest['ctx']['db'], userId: string, category: string): Promise<Values> {
  const cat = PREFERENCES[category]!
  const r = await sql<{ name: string; value: unknown }>`select name, value from user_preferences where user_id = ${userId} and category = ${category}`.execute(db)
  const stored = new Map(r.rows.map((x) => [x.name, x.value]))
  const out: Values = {}
  for (const f of cat.fields) {
    const v = stored.get(f.name)
    out[f.name] = { ...(f.default as Values), ...(v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : {}) }
  }
  return out
}

/** PUT and PATCH alike merge a group given in part (lina sends one group at a time). */
async function write(req: FastifyRequest): Promise<Values> {
  const user = requireUser(req)
  const cat = categoryOf(req)
  const body = req.body
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError({ non_field_errors: [tr(req.ctx.lang, 'Invalid data. Expected a dictionary, but got {type}.', { type: pyType(body) })] })
  }
  const current = await readPreferences(req.ctx.db, user.id, cat.name)
  // A group given in part keeps its other values (PATCH and PUT alike: lina sends one group at a time).
  const input: Values = {}
  for (const f of cat.fields) {
    const v = (body as Values)[f.name]
    if (v !== undefined) input[f.name] = v && typeof v === 'object' && !Array.isArray(v) ? { ...(current[f.name] as Values), ...(v as Values) } : v
  }
  const { values, errors } = parseObject(cat.fields, input, req.ctx, { partial: true, fillDefaults: false })
  if (Object.keys(errors).length) throw validationError(errors)
  await req.ctx.db.transaction().execute(async (tx) => {
    for (const [name, value] of Object.entries(values)) {
      await sql`insert into user_preferences (user_id, category, name, value) values (${user.id}, ${cat.name}, ${name}, ${JSON.stringify(value)}::jsonb)
        on conflict (user_id, category, name) do update set value = excluded.value, date_updated = now()`.execute(tx)
    }
  })
  return readPreferences(req.ctx.db, user.id, cat.name)
}

function describe(req: FastifyRequest) {
  requireUser(req)
  const cat = categoryOf(req)
  const infos = Object.fromEntries(cat.fields.map((f) => [f.name, fieldInfo(f, req.ctx)]))
  return { name: tr(req.ctx.lang, cat.title), description: '', renders: ['application/json'], parses: PARSES, actions: { GET: infos, PUT: infos, PATCH: infos } }
}

export function registerPreferences(app: FastifyInstance): void {
  for (const url of [PREFERENCE_API, PREFERENCE_API.slice(0, -1)]) {
    app.get(url, async (req) => readPreferences(req.ctx.db, requireUser(req).id, categoryOf(req).name))
    app.put(url, async (req) => write(req))
    app.patch(url, async (req) => write(req))
    app.options(url, async (req) => describe(req))
  }
}

addMessages({
  'Console preferences': ['控制台偏好', 'コンソールの設定'],
  'Web terminal preferences': ['Web 终端偏好', 'Web ターミナルの設定'],
  'SSH terminal preferences': ['SSH 终端偏好', 'SSH ターミナルの設定'],
  'Basic': ['基本', '基本'],
  'Browser language': ['浏览器语言', 'ブラウザの言語'],
  'Theme': ['主题', 'テーマ'],
  'Follow the system': ['跟随系统', 'システムに従う'],
  'Light': ['浅色', 'ライト'],
  'Dark': ['深色', 'ダーク'],
  'Default view': ['默认视图', '既定のビュー'],
  'Last used': ['上次使用', '前回使用'],
  'Console': ['控制台', 'コンソール'],
  'Audit': ['审计台', '監査'],
  'Workbench': ['工作台', 'ワークベンチ'],
  'Time zone': ['时区', 'タイムゾーン'],
  'Empty: the browser\'s time zone.': ['留空：使用浏览器的时区。', '空欄：ブラウザのタイムゾーン。'],
  'Not a known time zone.': ['不是已知的时区。', '不明なタイムゾーンです。'],
  'Async loading of asset tree': ['异步加载资产树', '資産ツリーの非同期読み込み'],
  'Default open method': ['默认打开方式', '既定の開き方'],
  'Current window': ['当前窗口', '現在のウィンドウ'],
  'New window': ['新窗口', '新しいウィンドウ'],
  'Graphics (RDP)': ['图形化 (RDP)', 'グラフィック (RDP)'],
  'RDP resolution': ['RDP 分辨率', 'RDP 解像度'],
  'Auto': ['自动', '自動'],
  'Keyboard layout': ['键盘布局', 'キーボードレイアウト'],
  'RDP client option': ['RDP 客户端选项', 'RDP クライアントオプション'],
  'Full screen': ['全屏', 'フルスクリーン'],
  'Multi screen': ['多屏幕', 'マルチスクリーン'],
  'Drives redirect': ['磁盘挂载', 'ドライブのリダイレクト'],
  'RDP color quality': ['RDP 颜色质量', 'RDP 色品質'],
  'High (32 bit)': ['高 (32 位)', '高 (32 ビット)'],
  'Medium (24 bit)': ['中 (24 位)', '中 (24 ビット)'],
  'Low (16 bit)': ['低 (16 位)', '低 (16 ビット)'],
  'RDP smart size': ['RDP 智能大小', 'RDP スマートサイズ'],
  'Remote application connection method': ['远程应用连接方式', 'リモートアプリの接続方法'],
  'Client': ['客户端', 'クライアント'],
  'Command line (SSH)': ['命令行 (SSH)', 'コマンドライン (SSH)'],
  'Character terminal font size': ['字符终端字体大小', '文字端末のフォントサイズ'],
  'Backspace as Ctrl+H': ['退格键作为 Ctrl+H', 'Backspace を Ctrl+H として送る'],
  'Right click quickly paste': ['右键快速粘贴', '右クリックで貼り付け'],
  'File name conflict resolution': ['文件名冲突解决', 'ファイル名の競合の解決'],
  'Replace': ['替换', '置換'],
  'Skip': ['跳过', 'スキップ'],
  'Rename': ['重命名', '名前の変更'],
  'Terminal theme name': ['终端主题', 'ターミナルのテーマ'],
})
