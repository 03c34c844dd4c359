/** DRF-style error bodies (contract §1.9). Throw an ApiError anywhere; the error handler renders it. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'object' && body && 'detail' in body ? String((body as { detail: unknown }).detail) : `HTTP ${statusCode}`)
  }
}

export type FieldErrors = Record<string, unknown>

export const badRequest = (body: FieldErrors | unknown[] | string) => new ApiError(400, body)
export const validationError = (errors: FieldErrors) => new ApiError(400, errors)
export const detailError = (status: number, detail: string, code: string) => new ApiError(status, { detail, code })
export const notAuthenticated = (detail = 'Authentication credentials were not provided.', code = 'not_authenticated') =>
  new ApiError(401, { detail, code }, { 'WWW-Authenticate': 'Bearer realm="api"' })
export const permissionDenied = (detail = 'You do not have permission to perform this action.') =>
  new ApiError(403, { detail, code: 'permission_denied' })
export const notFound = (model = 'Object') => new ApiError(404, { detail: `${model} object does not exist.`, code: 'object_does_not_exist' })
export const methodNotAllowed = (method: string) =>
  new ApiError(405, { detail: `Method "${method}" not allowed.`, code: 'method_not_allowed' })
export const conflict = (detail = 'Someone else is doing this. Please wait for complete', code = 'conflict') => new ApiError(409, { detail, code })
