/**
 * `POST /api/v1/settings/tools/<ping|telnet|nmap>/` (Settings → Tools; tools.ts): body `{dest_ip, dest_port?,
 * dest_ports?, count?, timeout?}` → `{ok, lines}` (translated). Needs `settings.change_setting` at system scope,
 * checked before anything else (*differs*: JumpServer's tools websocket lets any signed-in user connect anywhere
 * from the server). Bad input → 400 with field errors.
 */
import type { FastifyInstance } from 'fastify'
import { requirePerm } from '../http/context.ts'
import { notFound, validationError } from '../http/errors.ts'
import { addMessages, tr } from '../i18n.ts'
import { ORG_IDS } from '../rbac/catalog.ts'
import { MAX_PORTS, parsePorts, runTool, TOOLS, type ToolInput, type ToolName, validHost } from './tools.ts'

export const TOOLS_PERMISSION = 'settings.change_setting'

const E = {
  host: 'Enter a host name or an IP address.',
  port: 'Enter a port from 1 to 65535.',
  ports: 'Enter ports such as 22,80,8000-8010 (at most {max}).',
  count: 'Enter a count from 1 to 10.',
  timeout: 'Enter a timeout from 1 to 10 seconds.',
}

const int = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,6}$/.test(v.trim()) ? Number(v) : NaN)

export function registerTools(app: FastifyInstance): void {
  app.post<{ Params: { tool: string } }>('/api/v1/settings/tools/:tool/', async (req) => {
    await requirePerm(req, TOOLS_PERMISSION, ORG_IDS.ROOT)
    const tool = req.params.tool as ToolName
    if (!TOOLS.includes(tool)) throw notFound('Tool')
    const b = (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? req.body : {}) as Record<string, unknown>
    const lang = req.ctx.lang
    const errors: Record<string, string[]> = {}
    const host = typeof b.dest_ip === 'string' ? b.dest_ip.trim() : ''
    if (!validHost(host)) errors.dest_ip = [tr(lang, E.host)]
    const input: ToolInput = { dest_ip: host, timeout: 3 }
    if (b.timeout !== undefined && b.timeout !== null && b.timeout !== '') {
      const t = int(b.timeout)
      if (!Number.isInteger(t) || t < 1 || t > 10) errors.timeout = [tr(lang, E.timeout)]
      else input.timeout = t
    }
    if (tool === 'nmap') {
      const ports = typeof b.dest_ports === 'string' ? parsePorts(b.dest_ports) : null
      if (!ports) errors.dest_ports = [tr(lang, E.ports, { max: MAX_PORTS })]
      else input.dest_ports = ports
    } else {
      if (b.dest_port !== undefined && b.dest_port !== null && b.dest_port !== '') {
        const p = int(b.dest_port)
        if (!Number.isInteger(p) || p < 1 || p > 65535) errors.dest_port = [tr(lang, E.port)]
        else input.dest_port = p
      }
      if (tool === 'ping' && b.count !== undefined && b.count !== null && b.count !== '') {
        const c = int(b.count)
        if (!Number.isInteger(c) || c < 1 || c > 10) errors.count = [tr(lang, E.count)]
        else input.count = c
      }
    }
    if (Object.keys(errors).length) throw validationError(errors)
    return runTool(tool, input, (text, vars) => tr(lang, text, vars))
  })
}

addMessages({
  [E.host]: ['请输入主机名或 IP 地址。', 'ホスト名または IP アドレスを入力してください。'],
  [E.port]: ['请输入 1 到 65535 之间的端口。', '1 から 65535 のポートを入力してください。'],
  [E.ports]: ['请输入端口，例如 22,80,8000-8010（最多 {max} 个）。', '22,80,8000-8010 のようにポートを入力してください（最大 {max} 個）。'],
  [E.count]: ['请输入 1 到 10 之间的次数。', '1 から 10 の回数を入力してください。'],
  [E.timeout]: ['请输入 1 到 10 秒之间的超时。', '1 から 10 秒のタイムアウトを入力してください。'],
  'Cannot resolve the host name {host}': ['无法解析主机名 {host}', 'ホスト名 {host} を解決できません'],
  'TCP ping {host} ({address}) port {port}:': ['TCP ping {host}（{address}）端口 {port}：', 'TCP ping {host}（{address}）ポート {port}:'],
  'seq={seq} connected time={ms} ms': ['seq={seq} 已连接 时间={ms} ms', 'seq={seq} 接続 時間={ms} ms'],
  'seq={seq} failed: {error}': ['seq={seq} 失败：{error}', 'seq={seq} 失敗: {error}'],
  '{sent} sent, {ok} connected, {loss}% loss': ['发送 {sent}，连接 {ok}，丢失 {loss}%', '送信 {sent}、接続 {ok}、損失 {loss}%'],
  'min/avg/max = {min}/{avg}/{max} ms': ['最小/平均/最大 = {min}/{avg}/{max} ms', '最小/平均/最大 = {min}/{avg}/{max} ms'],
  'Trying {address} port {port}...': ['正在尝试 {address} 端口 {port}…', '{address} ポート {port} に接続中…'],
  'Connection failed: {error}': ['连接失败：{error}', '接続に失敗しました: {error}'],
  'Connected to {address} port {port} in {ms} ms': ['已连接到 {address} 端口 {port}，用时 {ms} ms', '{address} ポート {port} に {ms} ms で接続しました'],
  'Scanning {count} port(s) of {host} ({address})': ['正在扫描 {host}（{address}）的 {count} 个端口', '{host}（{address}）の {count} ポートをスキャン中'],
  '{port}/tcp open': ['{port}/tcp 开放', '{port}/tcp オープン'],
  'Stopped after {s} seconds': ['{s} 秒后停止', '{s} 秒後に停止しました'],
  '{open} open, {closed} closed or filtered': ['开放 {open}，关闭或被过滤 {closed}', 'オープン {open}、クローズまたはフィルタ {closed}'],
  Tool: ['工具', 'ツール'],
})
