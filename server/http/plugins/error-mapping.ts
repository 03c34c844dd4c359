/**
 * Errors as answers: an ApiError as its status and (translated) body, Fastify's own 4xx (body too large, media
 * type, bad request) in the same DRF shape, anything else a logged 500 with a generic message.
 */
import type { FastifyRequest } from 'fastify'
import { tr } from '../../i18n.ts'
import { ApiError } from '../errors.ts'
import { DRAIN_LIMIT, drainBody, FILE_LIMIT } from './body-parsers.ts'
import { appWide } from './plugin.ts'

/** A 5xx is a bug: always logged with its stack, with or without the request logger. */
function logServerError(req: FastifyRequest, err: Error): void {
  if (req.log.level && req.log.level !== 'silent') req.log.error({ err }, 'unhandled error')
  else console.error(`[${new Date().toISOString()}] unhandled error on ${req.method} ${req.url.slice(0, 200)}:`, err.stack ?? err)
}

function errorBody(req: FastifyRequest, status: number, body: unknown): unknown {
  if (body && typeof body === 'object' && !Array.isArray(body) && typeof (body as { detail?: unknown }).detail === 'string') {
    const lang = req.ctx?.lang ?? 'en'
    return { ...(body as object), detail: tr(lang, (body as { detail: string }).detail) }
  }
  return status === 400 && body === '' ? undefined : body
}

export const errorMapping = appWide('error-mapping', async (app) => {
  app.setErrorHandler(async (err: Error & { statusCode?: number; code?: string; validation?: unknown }, req, reply) => {
    if (err instanceof ApiError) {
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
      const body = errorBody(req, err.statusCode, err.body)
      return reply.status(err.statusCode).send(body === undefined ? '' : body)
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
      // Read (and discard) the rest of the body, up to a bound, before answering: a client still sending would
      // otherwise see its connection reset (EPIPE) instead of this answer.
      await drainBody(req, DRAIN_LIMIT)
      const isFile = /render-to-json|import/.test(req.url)
      if (isFile) {
        return reply.status(400).send({ detail: tr(req.ctx?.lang ?? 'en', 'The file content overflowed (The maximum length `{n}` bytes)', { n: FILE_LIMIT }), code: 'file_content_overflowed' })
      }
      return reply.status(413).send({ detail: tr(req.ctx?.lang ?? 'en', 'Request body is too large'), code: 'payload_too_large' })
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
      return reply.status(415).send({ detail: tr(req.ctx?.lang ?? 'en', 'Unsupported media type'), code: 'unsupported_media_type' })
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ detail: err.message, code: (err.code ?? 'bad_request').toLowerCase() })
    }
    logServerError(req, err)
    return reply.status(500).send({ detail: tr(req.ctx?.lang ?? 'en', 'Unexpect error occur'), code: 'unexpect_error' })
  })
})
