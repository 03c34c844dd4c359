/**
 * The address of one task execution's live log page (the `CeleryTaskLog` route, src/router/routes/common.ts):
 * every task command opens it. Kept here, beside the log's component, so generic UI need not read the router.
 */
export const taskLogPath = (executionId: string) => `/ops/celery/task/${encodeURIComponent(executionId)}/log`
