import type { FastifyRequest } from 'fastify'

/** A JSON object body (or query) with values still to check: anything else (an array, a scalar, nothing) reads as `{}`. */
export type Values = Record<string, unknown>

/** The request's JSON body as an object whose values are still to be checked (not an object: `{}`). */
export function bodyObject(req: FastifyRequest): Values {
  const b = req.body
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as Values) : {}
}

/** The id an item of a list of references names: the item itself, or its `id` (or `pk`) when it is an object. */
export function refId(x: unknown): unknown {
  return x && typeof x === 'object' ? ((x as Values).id ?? (x as Values).pk) : x
}

/** A JSON value as an object of unknown values, or undefined when it is not an object (an array, a scalar, null). */
export function jsonObject(v: unknown): Values | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Values) : undefined
}
