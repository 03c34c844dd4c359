/**
 * Request bodies: JSON (a parse error is a DRF-style 400, never HTML or a 500), form bodies, multipart uploads and
 * raw files (render-to-json, imports), each bounded; and the draining of a body that was answered before it was read.
 */
import fastifyMultipart from '@fastify/multipart'
import type { FastifyRequest } from 'fastify'
import { ApiError } from '../errors.ts'
import { appWide } from './plugin.ts'

/** Largest uploaded file (multipart part or raw file body). */
export const FILE_LIMIT = 10 * 1024 * 1024
/** How much of an oversized body is read and discarded so the client gets the answer (more: the connection closes). */
export const DRAIN_LIMIT = 64 * 1024 * 1024

export const bodyParsers = appWide('body-parsers', async (app) => {
  await app.register(fastifyMultipart, { limits: { fileSize: FILE_LIMIT, files: 1 } })
  app.removeContentTypeParser(['application/json'])
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') return done(null, undefined)
    try {
      done(null, JSON.parse(text))
    } catch (e) {
      done(new ApiError(400, { detail: `JSON parse error - ${(e as Error).message}`, code: 'parse_error' }), undefined)
    }
  })
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))))
  })
  app.addContentTypeParser(['text/csv', 'text/xlsx', 'application/xlsx', 'application/octet-stream',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  { parseAs: 'buffer', bodyLimit: FILE_LIMIT }, (_req, body, done) => done(null, body))
})

export function hasUnreadBody(req: FastifyRequest): boolean {
  const h = req.headers
  const declared = Number(h['content-length'] ?? 0) > 0 || h['transfer-encoding'] !== undefined
  return declared && !req.raw.readableEnded && !req.raw.destroyed && req.raw.listenerCount('data') === 0
}

/** Reads and discards the request body up to `limit` bytes (resolves when it ended or the limit was passed). */
export function drainBody(req: FastifyRequest, limit: number): Promise<void> {
  const raw = req.raw
  if (raw.readableEnded || raw.destroyed) return Promise.resolve()
  return new Promise((resolve) => {
    let seen = 0
    const done = () => {
      raw.off('data', onData)
      raw.off('end', done)
      raw.off('error', done)
      raw.off('close', done)
      resolve()
    }
    const onData = (chunk: Buffer) => {
      seen += chunk.length
      if (seen > limit) done()
    }
    raw.on('data', onData)
    raw.on('end', done)
    raw.on('error', done)
    raw.on('close', done)
    raw.resume()
  })
}
