/**
 * Pages that belong to components this server does not have: the download centre (`/core/download/`); the web
 * terminal (`/luna/`) is built in (server/app.ts), and koko's file manager (`/koko/elfinder/…`, the reference
 * console's link) redirects to the console's own (Workbench → File manager, issue 31). The console links to them as the
 * reference console does; instead of a bare 404 they answer a short page, in the visitor's language, saying what is
 * needed (status 404 still: there is nothing there). In proxy mode the real JumpServer serves them.
 */
import type { FastifyInstance } from 'fastify'
import { addMessages, tr } from '../i18n.ts'

const PAGES: Array<{ prefix: string; title: string; body: string }> = [
  {
    prefix: '/core/download/',
    title: 'Download centre',
    body: 'The download centre offers the client tools of a JumpServer installation. This server does not ship them: install the clients from your JumpServer distribution.',
  },
]

addMessages({
  'File manager': ['文件管理', 'ファイル管理'],
  'Download centre': ['下载中心', 'ダウンロードセンター'],
  'Back to the console': ['返回控制台', 'コンソールに戻る'],
  [PAGES[0]!.body]: ['下载中心提供 JumpServer 安装包中的客户端工具。本服务器不附带这些工具：请从您的 JumpServer 发行版安装客户端。',
    'ダウンロードセンターは JumpServer インストールのクライアントツールを提供します。このサーバーには含まれていません。JumpServer の配布物からクライアントをインストールしてください。'],
})

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export function registerComponentPages(app: FastifyInstance): void {
  app.get('/koko/*', async (_req, reply) => reply.redirect('/ui/workbench/file-manager', 302))
  for (const page of PAGES) {
    app.get(`${page.prefix}*`, async (req, reply) => {
      const lang = req.ctx?.lang ?? 'en'
      const title = escape(tr(lang, page.title))
      const html = `<!doctype html><html lang="${lang === 'zh' ? 'zh-CN' : lang}"><head><meta charset="utf-8">` +
        `<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title>` +
        `<link rel="icon" href="/static/img/facio.ico"></head><body><main><h1>${title}</h1>` +
        `<p>${escape(tr(lang, page.body))}</p><p><a href="/ui/">${escape(tr(lang, 'Back to the console'))}</a></p></main></body></html>`
      return reply.status(404).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(html)
    })
  }
}
