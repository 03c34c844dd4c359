/**
 * The resource declaration: one object per resource, from which the engine serves OPTIONS metadata,
 * list/retrieve/create/update/delete (single and bulk), export/import and operate logs.
 * See docs/engine.md for the shapes and the decisions behind them.
 */
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { RawBuilder } from 'kysely'
import type { DB, RowOf, Tables } from '../db/connection.ts'
import type { RequestContext } from '../http/request-context.ts'
import type { Values } from '../http/body.ts'

/**
 * An untyped row: what the engine's generic code reads (`t.*` of any resource's table plus its computed fields),
 * parsed input keyed by field names, and JSON payloads. A declaration names its table and gets typed rows instead
 * (`ResourceDef<'assets'>`, `StoredRow`); docs/engine.md counts what is left.
 */
export type Row = Record<string, any>
export type TableName = keyof Tables
/**
 * The row a declaration sees: its table's columns as read (`t.*`, typed by the generated schema), and for its
 * fields' `get`/`load` also `X`, the values of its computed (`expr`) fields. `ResourceDef` without a table (the
 * engine's own view of every resource) reads plain `Row`s.
 */
export type StoredRow<T extends TableName, X extends object = NoExtra> = TableName extends T ? Row : RowOf<T> & X
export type NoExtra = Record<never, never>
export type Ctx = RequestContext
export type Cond = RawBuilder<unknown>

/** Field kinds. Each maps to one OPTIONS `type` (contract §2.3) and one value shape (contract §3). */
export type FieldType =
  | 'string' // CharField (also uuid-like strings)
  | 'text' // CharField without max length (comment)
  | 'email'
  | 'url'
  | 'uuid'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'datetime'
  | 'date'
  | 'choice' // plain ChoiceField: bare value
  | 'labeled_choice' // {value, label}
  | 'multiple_choice' // labeled multiple choice: [{value, label}]
  | 'fk' // {id, name, …}
  | 'm2m' // [{id, name, …}]
  | 'pk' // bare id of a related object (plain serializers)
  | 'json'
  | 'list' // ListField (+ child)
  | 'nested' // single nested object (+ children)
  | 'nested_many' // many nested objects: type `field` with child `nested object`
  | 'field' // generic read-only value (method fields)
  | 'image' // an uploaded image (settings: a data URL in, the image's URL out)
  | 'tree' // tree choice / bit field: [{value, label}] (+ `tree`; `bits` stores an integer)

export interface Choice { value: string | number | boolean; label: string }
export interface TreeChoice { value: string; label: string; children?: TreeChoice[] }

export type Action =
  | 'list' | 'retrieve' | 'create' | 'update' | 'partial_update' | 'destroy'
  | 'bulk_create' | 'bulk_update' | 'partial_bulk_update' | 'bulk_destroy' | 'metadata' | 'export' | 'import'

export type PermAction = 'view' | 'add' | 'change' | 'delete' | 'import_add' | 'import_change'

/** Which generic verbs a resource serves; the rest answer 405. */
export type Verb = 'list' | 'retrieve' | 'create' | 'update' | 'destroy' | 'bulk_update' | 'bulk_destroy' | 'import' | 'export'

/** A many-to-many link table: rows (from = this object's id, to = target id) plus optional fixed columns. */
export interface Through {
  table: string
  from: string
  to: string
  /** Extra condition on the link rows (alias `th`), e.g. `th.scope = 'system'`. */
  where?: (ctx: Ctx) => Cond | undefined
  /** Extra column values of a new link row (id, scope, org_id, …). */
  values?: (ctx: Ctx) => Values
}

export interface Relation {
  /** Target resource name (registry key, e.g. `users.user`). */
  resource: string
  /** Attributes shown for a related object; default id + name. May name computed fields of the target. */
  attrs?: string[]
  /** m2m only. */
  through?: Through
  /** Restricts which targets may be referenced (alias `t` = target), on top of the target's own scope. */
  limit?: (ctx: Ctx) => Cond | undefined
  /** Ignore the target's org/base scope for display and validation. */
  unscoped?: boolean
  /**
   * Query string of the target list that gives the valid targets (e.g. `category=database` for a database's
   * platform): appended to the picker URL of the OPTIONS `related` hint. Pair it with `limit`, which enforces it.
   */
  query?: string
  /**
   * Files' natural key: a column of the target (unique within its scope, e.g. a node's `full_value` path) that an
   * import cell may give instead of an id and that the export writes. Unknown values are field errors.
   */
  naturalKey?: string
}

export interface LoadArgs<R = Row> { db: DB; ctx: Ctx; rows: R[] }

export interface FieldDef<R = Row> {
  name: string
  type: FieldType
  /** English label; translated through server/i18n.ts by the request language. */
  label?: string
  help_text?: string
  /** Database column (default: the name; fk: `<name>_id`); false for computed fields. */
  column?: string | false
  /** Read-only SQL expression selected as this field (alias `t`); sortable. */
  expr?: string
  required?: boolean
  read_only?: boolean
  write_only?: boolean
  allow_null?: boolean
  allow_blank?: boolean
  max_length?: number
  min_length?: number
  min_value?: number
  max_value?: number
  choices?: Choice[]
  /** Plain default (shown in OPTIONS when simple) or a function evaluated per request. */
  default?: unknown
  relation?: Relation
  /** tree: the choice tree (group nodes use their label as value); leaves are the values. */
  tree?: TreeChoice[]
  /** tree: store the values as an integer bit field (value → bit); otherwise a JSON array. */
  bits?: Record<string, number>
  /** list: element info; nested_many: the element's children. */
  child?: FieldDef
  children?: FieldDef[]
  /**
   * Sub-fields that depend on another field's value (a custom asset's `custom_info` on its platform's custom
   * fields): OPTIONS takes the value from `?<field>=` or the object's own, describes the field as a nested object
   * with the children this returns (undefined: as declared) and adds the hint `children_from: <field>`.
   */
  childrenFrom?: { field: string; children: (value: unknown, ctx: Ctx) => Promise<FieldDef[] | undefined> }
  /**
   * The static form of `childrenFrom` for a sub-field of a list row (a platform protocol's `setting`, whose keys
   * depend on the row's protocol `name`): OPTIONS describes the field as a nested object with the hint
   * `children_from: <sibling>` and every variant's children under `variants: {<value>: {…}}`, so the form picks
   * them per row without reading OPTIONS again. Input is parsed against the variant of the sibling's value
   * (missing keys get their defaults, unknown keys are dropped; a value without a variant is `{}`).
   */
  childrenBy?: { field: string; variants: Record<string, FieldDef[]> }
  /**
   * The default the server fills on create, computed per request so the form can show it (issue 35: a host's
   * node and protocols looked empty): with `field`, from that field's value (`?<field>=`, as `childrenFrom`; the
   * hint `default_from: <field>` tells the form to read OPTIONS again when it changes), else from the request
   * alone (the organization's root node). Undefined: no default shown.
   */
  defaultFrom?: { field?: string; get: (value: unknown, ctx: Ctx) => Promise<unknown> }
  /** Never written to operate logs in clear, never exported. */
  secret?: boolean
  /** Hybrid-encrypted on the wire (contract §6): decrypted with the session key, plain text accepted. */
  encrypted?: boolean
  /** Unique across the table (`true`) or per organization (`org`). */
  unique?: boolean | 'org'
  /** Computed output from the selected row (after `load`). */
  get?(row: R, ctx: Ctx, loaded: unknown): unknown
  /** Batch loader for computed output: value per row id. */
  load?(ids: unknown[], args: LoadArgs<R>): Promise<Map<unknown, unknown>>
  /** Replaces the kind's input parsing (e.g. phone numbers given as text or `{code, phone}`): the value, or an error message. */
  parse?: (raw: unknown, ctx: Ctx) => { value: unknown } | { error: string }
  /** Extra validation of a parsed value: an error message (or messages / nested errors). */
  validate?: (value: any, ctx: Ctx) => string | string[] | Record<string, unknown> | undefined
  /** Whether the field is part of the serializer for this request and action. */
  visible?: (ctx: Ctx, action: Action) => boolean | Promise<boolean>
  /** Custom write for computed fields (called inside the transaction after the row is saved). */
  write?: (tx: DB, id: unknown, value: any, ctx: Ctx, op: 'create' | 'update') => Promise<void>
  /** Input transform after validation (e.g. a plain password becoming a hash column). */
  toColumns?: (value: any, ctx: Ctx) => Promise<Values> | Values
}

export interface FilterDef {
  name: string
  /** Builds the condition (alias `t`); throw a field error for a bad value; return undefined to ignore. */
  apply: (value: string, ctx: Ctx, query: Record<string, string | string[] | undefined>) => Cond | undefined | Promise<Cond | undefined>
  /** The exact number of rows of the organization the filter selects, when it is kept somewhere cheaper than a
   * count (a node's cached subtree amount): used when this filter is the list's only condition. */
  count?: (value: string, ctx: Ctx, query: Record<string, string | string[] | undefined>) => Promise<number | undefined>
}

export type BulkDeleteGuard = 'org' | 'filtered' | 'ids' | 'never'

export interface Hooks<R = Row> {
  /** Cross-field validation and defaults: return field errors (or nothing). Runs before the transaction; it may
   * also set values (defaults derived from other fields). */
  validate?(values: Values, ctx: Ctx, info: WriteInfo<R>): Promise<Record<string, unknown> | undefined> | Record<string, unknown> | undefined
  /** Extra column values for the row (inside the transaction, before the insert/update). */
  columns?(values: Values, ctx: Ctx, info: WriteInfo<R> & { tx: DB }): Promise<Values> | Values
  /** After the row and its links are saved (inside the transaction). */
  afterSave?(tx: DB, id: unknown, values: Values, ctx: Ctx, info: WriteInfo<R>): Promise<void>
  /** After the transaction committed, once per saved object (work outside the database: a mail). Must not throw. */
  afterCommit?(id: unknown, values: Values, ctx: Ctx, info: WriteInfo<R>): Promise<void>
  /** Before a delete (inside the transaction): throw an ApiError to refuse. */
  beforeDelete?(tx: DB, row: R, ctx: Ctx): Promise<void>
  /**
   * Replaces the generic create of `POST <list>` (after the add permission check): resources whose creation is a
   * command, e.g. an automation execution answering `{task}`. Must answer 400 field errors for bad input.
   */
  create?(req: FastifyRequest, reply: FastifyReply, api: ResourceApi<R>): Promise<unknown>
  /** A custom answer for a retrieve (return undefined for the normal one). */
  retrieve?(req: FastifyRequest, row: R): Promise<unknown>
  /** Replaces the row deletion (e.g. soft delete); default `delete from table`. */
  destroy?(tx: DB, row: R, ctx: Ctx): Promise<void>
}

export interface WriteInfo<R = Row> {
  op: 'create' | 'update'
  partial: boolean
  /** The stored row before an update. */
  existing?: R
  /** The request (for logging), when the write comes from one. */
  req?: FastifyRequest
}

export interface ListOptions {
  /** Keep only these fields. */
  only?: string[]
  /** Row cap of a bare answer. */
  limit?: number
  /** Always a bare array (no pagination). */
  bare?: boolean
  /** An extra condition (alias `t`). */
  extra?: Cond
  /**
   * The exact number of rows the resource's scope and `extra` match, when the caller keeps it (e.g. with a cache
   * `extra` reads): used instead of counting when no list filter applies. Undefined from the function → counted.
   */
  count?: () => Promise<number | undefined>
  /** Another context (e.g. the root organization for suggestions). */
  ctx?: Ctx
}

/** Helpers handed to special actions. */
export interface ResourceApi<R = Row> {
  def: ResourceDef
  /** The object by id within the request's scope, or a 404. */
  getObject(req: FastifyRequest, id: string, db?: DB): Promise<R>
  /** Rows of the filtered list (search, filters, spm, ids, order), no pagination. */
  filteredRows(req: FastifyRequest, db?: DB): Promise<R[]>
  /** Serializes rows with this resource's fields for an action (optionally limited to some fields). */
  serialize(req: FastifyRequest, rows: Row[], opts?: { action?: Action; only?: string[]; db?: DB }): Promise<Row[]>
  /** A paginated (or bare) list answer, honouring every list parameter. */
  listResponse(req: FastifyRequest, opts?: ListOptions): Promise<unknown>
  /** Runs the generic create of one object (validation, transaction, operate log); answers it serialized. */
  create(req: FastifyRequest, body: unknown): Promise<Row>
  /** Runs an update of one object with the engine's validation, transaction and operate log. */
  update(req: FastifyRequest, id: string, body: Row, opts?: { partial?: boolean }): Promise<Row>
  /** Records an operate log entry. */
  audit(tx: DB, req: FastifyRequest, action: 'create' | 'update' | 'delete', row: Row, diff?: DiffEntry[]): Promise<void>
}

export interface ActionDef<R = Row> {
  /** URL segment(s) after the list URL or the detail URL, e.g. `suggestions` or `password/reset`. */
  path: string
  detail: boolean
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** Permission requirement (`a|b` alternatives, list = all); `null` = any authenticated user. */
  perm: string | string[] | null
  /** Check the permission at system scope (ROOT) instead of the current org. */
  systemPerm?: boolean
  /**
   * A list action that creates with the resource's writable fields (tickets' `open/`): OPTIONS on the list then
   * describes `POST` with them, as DRF does for such a viewset (lina's request form reads `actions.POST` there).
   */
  createForm?: boolean
  handler(req: FastifyRequest, reply: FastifyReply, api: ResourceApi<R>, id?: string): Promise<unknown>
}

export interface DiffEntry { field: string; before: string; after: string }

/**
 * A resource. `T` names its table: hooks, `display` and actions then see its typed rows (`R`: `t.*`, what
 * `getObject` reads), fields' `get`/`load` the same with `X`, the values of the computed (`expr`) fields they read.
 * Without `T` (the engine's generic code) rows are `Row`.
 */
export interface ResourceDef<T extends TableName = TableName, X extends object = NoExtra, R = StoredRow<T>, F = StoredRow<T, X>> {
  /** Exports need a recent user confirmation of this level (e.g. secrets). */
  exportConfirm?: 'relogin' | 'password' | 'mfa'
  /**
   * Writes that send secrets somewhere (an account backup plan: its password and recipients; running it) need what
   * viewing a secret needs (issue 36 point 5): `perm` and a fresh confirmation of level `confirm` of the person
   * asking, checked on create and update before anything is looked at. A bearer token has no confirmation.
   */
  secretGuard?: { perm: string; confirm: 'relogin' | 'password' | 'mfa' }
  /** Registry key `<app>.<model>`; also the default permission codename base. */
  name: string
  app: string
  model: string
  /** English verbose name (operate-log resource type, 404 "X object does not exist."). */
  verboseName: string
  /** OPTIONS `name`; default `<verboseName> List`. */
  title?: string
  description?: string
  /** List URL with its trailing slash, e.g. `/api/v1/users/groups/`. */
  path: string
  table: T
  /** Id kind: uuid (generated) or serial (database) — serial ids are integers on the wire. */
  idKind?: 'uuid' | 'serial'
  /**
   * A unique column a detail path may name instead of the id (JumpServer's platforms: `/platforms/Linux/`): a value
   * that is not an id of `idKind` is looked up in it (read and write alike).
   */
  altLookup?: string
  fields: Array<FieldDef<F>>
  /** Rows carry `org_id`; lists are limited to the current org (ROOT sees all). */
  orgScoped?: boolean
  /**
   * The organization of a new object taken from a related one named in the body (JumpServer serializers that set
   * `org_id` from a parent, e.g. a session sharing from its session): used in any current org, so a component in
   * ROOT needs no `org_id`. Undefined → the current org (in ROOT: none, so the parent's field must be required:
   * its error is the answer). The relation check still holds the parent to the request's scope.
   */
  orgFrom?: (body: Row, ctx: Ctx, db: DB) => Promise<string | undefined>
  /**
   * The parent that decides a new object's organization (issue 36 point 10): `field` of the body names a row of
   * `table` (by id). The object takes that row's organization; outside ROOT a parent of another organization is a
   * 400 on `field` ("object does not exist"), so nobody writes into an organization they do not work in.
   */
  parent?: { field: string; table: string }
  /** Base restriction of every query (alias `t`), e.g. users limited to the current org's members. */
  scope?: (ctx: Ctx) => Cond | undefined
  /**
   * Every user lists and reads only the objects they own (connection tokens): another user's object answers 404
   * whatever their permissions (the permission conformance suite holds the resource to that).
   */
  ownObjects?: boolean
  /** Text columns searched by `search` (each term must match one of them). */
  search?: string[]
  /** A stored column holding `lower(searchExpression)` (a generated column of the table): `search` compares
   * terms with LIKE on it, what ILIKE does without lower-casing every row (big tables; engine test checks it). */
  searchColumn?: string
  filters?: Array<string | FilterDef>
  /** Column used by `date_from` / `date_to`. */
  dateRange?: string
  /** Orderable fields (default: every column field except uuid/fk/m2m/json) and the default order. */
  ordering?: { fields?: string[]; default: string[] }
  sizes?: { mini?: string[]; small?: string[] }
  unexport?: string[]
  bulkDelete?: BulkDeleteGuard
  /** Verbs served (default: all). */
  verbs?: Verb[]
  /** A verb not served answers 400 with this detail instead of 405 (e.g. "create a host or other"). */
  refusals?: Partial<Record<Verb, string>>
  /** Permission codename per action kind (default `<app>.<action>_<model>`). */
  perms?: Partial<Record<PermAction, string | string[]>>
  /** Permissions are checked at system scope (ROOT): organizations, roles. */
  systemPerms?: boolean
  /** Only these action kinds are checked at system scope (e.g. users: delete). */
  systemPermFor?: PermAction[]
  /** The text of an object in operate logs (Django `str(obj)`); default its name. */
  display?(row: R): string
  /** Organization an operate log belongs to when the resource is not org-scoped (default: current org). */
  auditOrg?: 'current' | 'system'
  /** No operate logs (e.g. the operate logs themselves). */
  noAudit?: boolean
  hooks?: Hooks<R>
  actions?: Array<ActionDef<R>>
}
