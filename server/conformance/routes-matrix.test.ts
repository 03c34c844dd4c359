/**
 * The permission and organization matrix of permissions-matrix.ts over the API routes that are not engine
 * resources (issue 36, "every new surface": the job center's `/api/v1/ops/` jobs part). Sessions, commands, job logs
 * and tickets are engine resources and are in that matrix by construction; here each hand-written route is declared
 * once with the permission it needs, and the cases are generated: every built-in role × own, foreign and ROOT
 * organization — allowed exactly where the catalogue says, refused with the permission error before any work —
 * and a job (and its execution) of one user and organization never shows to another user or organization.
 */
import type { LightMyRequestResponse } from 'fastify'
import { beforeAll, describe, expect, it } from 'vitest'
import { ORG_IDS, satisfies } from '../rbac/catalog.ts'
import { dbKind } from '../testing.ts'
import { conformanceServer, heldBy, makeSubjects, MISSING_UUID, type Subject } from './harness.ts'

const { t, admin } = await conformanceServer()
const DENIED = 'You do not have permission to perform this action.'

interface RouteCase { method: 'GET' | 'POST' | 'DELETE'; url: string; perm: string; body?: unknown }

/**
 * The job center's routes (server/jobs/routes.ts) with the permission each requires; an id of none (the checks come
 * before the lookup: an allowed caller gets 404, a refused one 403). A route added there belongs here.
 */
const ROUTES: readonly RouteCase[] = [
  { method: 'GET', url: '/api/v1/ops/jobs/', perm: 'ops.view_job' },
  { method: 'GET', url: `/api/v1/ops/jobs/${MISSING_UUID}/`, perm: 'ops.view_job' },
  { method: 'POST', url: '/api/v1/ops/jobs/', perm: 'ops.add_job', body: {} },
  { method: 'DELETE', url: `/api/v1/ops/jobs/${MISSING_UUID}/`, perm: 'ops.delete_job' },
  { method: 'GET', url: '/api/v1/ops/job-executions/', perm: 'ops.view_jobexecution' },
  { method: 'POST', url: '/api/v1/ops/job-executions/', perm: 'ops.add_jobexecution', body: {} },
  { method: 'GET', url: `/api/v1/ops/job-executions/${MISSING_UUID}/`, perm: 'ops.view_jobexecution' },
  { method: 'POST', url: `/api/v1/ops/job-executions/${MISSING_UUID}/stop/`, perm: 'ops.change_jobexecution|ops.add_jobexecution', body: {} },
  { method: 'GET', url: `/api/v1/ops/job-execution/task-detail/${MISSING_UUID}/`, perm: 'ops.view_jobexecution' },
  { method: 'GET', url: `/api/v1/ops/job-execution/asset-detail/?execution_id=${MISSING_UUID}`, perm: 'ops.view_jobexecution' },
  { method: 'GET', url: `/api/v1/ops/ansible/job-execution/${MISSING_UUID}/log/`, perm: 'ops.view_jobexecution' },
  { method: 'GET', url: '/api/v1/ops/variables/help/', perm: 'ops.view_job' },
  { method: 'GET', url: '/api/v1/ops/frequent-username/', perm: 'ops.view_job' },
]

const permissionDenied = (r: LightMyRequestResponse) => r.statusCode === 403 && r.json().code === 'permission_denied' && r.json().detail === DENIED

describe(`the permission and organization matrix of the job center's routes (${dbKind()})`, () => {
  let subjects: Subject[] = []
  let foreignOrg = ''
  const ORGS = ['own', 'foreign', 'root'] as const
  const orgId = (o: (typeof ORGS)[number]) => (o === 'own' ? ORG_IDS.DEFAULT : o === 'foreign' ? foreignOrg : ORG_IDS.ROOT)

  beforeAll(async () => {
    const org = await admin.post('/api/v1/orgs/orgs/', { name: 'Foreign jobs' })
    expect(org.statusCode, org.body).toBe(201)
    foreignOrg = org.json().id
    subjects = await makeSubjects(t, ORG_IDS.DEFAULT)
  })

  it('every route table entry is a route the server has (a renamed route fails here, not silently)', () => {
    const known = new Set(t.app.routeList.map((r) => `${r.method} ${r.url}`))
    for (const c of ROUTES) {
      const template = c.url.split('?')[0]!.replace(MISSING_UUID, ':id').replace('/task-detail/:id/', '/task-detail/:taskId/')
      expect(known.has(`${c.method} ${template}`), `${c.method} ${template}`).toBe(true)
    }
  })

  it.each(ROUTES.map((c) => [`${c.method} ${c.url}`, c] as const))('%s: each built-in role × own, foreign and ROOT org is allowed exactly as the catalogue says', async (_name, c) => {
    const problems: string[] = []
    for (const s of subjects) {
      for (const org of ORGS) {
        const expected = satisfies(heldBy(s.role, org === 'own' ? 'own' : org === 'foreign' ? 'foreign' : 'root'), c.perm)
        const r = await s.client.request({ method: c.method, url: c.url, headers: { 'x-jms-org': orgId(org) }, ...(c.body !== undefined ? { json: c.body } : {}) })
        const tag = `${s.role.name} in ${org} org → ${r.statusCode} ${r.body.slice(0, 120)}`
        if (r.statusCode >= 500 || r.statusCode === 401) problems.push(tag)
        else if (!expected && !permissionDenied(r)) problems.push(`${tag} (the catalogue denies it)`)
        else if (expected && permissionDenied(r)) problems.push(`${tag} (the catalogue allows it)`)
      }
    }
    expect(problems).toEqual([])
  })

  it('a job and its execution show to their creator in their organization only', async () => {
    const host = await admin.post('/api/v1/assets/hosts/', { name: 'jobs-matrix-host', address: '192.0.2.77', platform: 1 })
    expect(host.statusCode, host.body).toBe(201)
    // a job runs only on what its creator is granted
    const grant = await admin.post('/api/v1/perms/asset-permissions/', { name: 'jobs-matrix-grant', users: [t.adminId], assets: [host.json().id], accounts: ['@ALL'], actions: ['all'] })
    expect(grant.statusCode, grant.body).toBe(201)
    const job = await admin.post('/api/v1/ops/jobs/', { name: 'matrix job', assets: [host.json().id], args: 'true', runas_policy: 'privileged_first' })
    expect(job.statusCode, job.body).toBe(201)
    const jobId = job.json().id as string
    const run = await admin.post('/api/v1/ops/job-executions/', { job: jobId, parameters: {} })
    expect(run.statusCode, run.body).toBe(201)
    const executionId = run.json().id as string
    const own = { 'x-jms-org': ORG_IDS.DEFAULT }
    const foreign = { 'x-jms-org': foreignOrg }
    // the creator, in its organization
    expect((await admin.get(`/api/v1/ops/jobs/${jobId}/`, own)).statusCode).toBe(200)
    expect((await admin.get(`/api/v1/ops/job-executions/${executionId}/`, own)).statusCode).toBe(200)
    // … neither listed nor retrieved, run or stopped by id in another organization, as the lists are scoped
    for (const url of [`/api/v1/ops/jobs/${jobId}/`, `/api/v1/ops/job-executions/${executionId}/`]) {
      expect((await admin.get(url, foreign)).statusCode, url).toBe(404)
    }
    expect((await admin.post('/api/v1/ops/job-executions/', { job: jobId, parameters: {} }, foreign)).statusCode).toBe(404)
    expect(JSON.stringify((await admin.get('/api/v1/ops/jobs/', foreign)).json())).not.toContain(jobId)
    expect(JSON.stringify((await admin.get('/api/v1/ops/job-executions/', foreign)).json())).not.toContain(executionId)
    // no other user, whatever their role, reads, runs, stops or deletes it, in any organization
    const problems: string[] = []
    for (const s of subjects) {
      for (const org of ORGS) {
        const headers = { 'x-jms-org': orgId(org) }
        for (const [method, url, body] of [
          ['GET', `/api/v1/ops/jobs/${jobId}/`], ['GET', `/api/v1/ops/job-executions/${executionId}/`],
          ['POST', '/api/v1/ops/job-executions/', { job: jobId, parameters: {} }], ['POST', `/api/v1/ops/job-executions/${executionId}/stop/`, {}],
          ['DELETE', `/api/v1/ops/jobs/${jobId}/`],
        ] as const) {
          const r = await s.client.request({ method, url, headers, ...(body ? { json: body } : {}) })
          if (r.statusCode < 300 || r.statusCode >= 500) problems.push(`${s.role.name} ${method} ${url} in ${org} org → ${r.statusCode} ${r.body.slice(0, 120)}`)
        }
        for (const url of ['/api/v1/ops/jobs/', '/api/v1/ops/job-executions/']) {
          const list = await s.client.get(url, headers)
          if (list.body.includes(jobId) || list.body.includes(executionId)) problems.push(`${s.role.name} lists the admin's job in ${org} org (${url})`)
        }
      }
    }
    expect(problems).toEqual([])
    expect((await admin.get(`/api/v1/ops/jobs/${jobId}/`, own)).statusCode).toBe(200)
  })
})
