import { appendFileSync, mkdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { CommandStartedEvent, Db, Document, MongoClient } from 'mongodb'

/**
 * Every query a service sends must be served by an index it declares, so that on
 * MongoDB in production no read grows with its collection. The local FerretDB uses no index
 * but `_id`, so the plans cannot be asked of it; instead every package's test suite records
 * the shape of each query its apps send (collection, filtered fields, sorted fields), and
 * `check-query-shapes.ts`, run by scripts/test.sh after the suites, matches each shape with
 * the indexes the service created from its declaration.
 */
export interface QueryShape {
  command: string
  collection: string
  /** The filtered fields (top level, and inside $or/$and), ids in paths as `<key>`. */
  filter: string[]
  /** The sorted fields, in order. */
  sort: string[]
  /** An equality (or $in) on `_id`: the primary key serves it whatever else is filtered. */
  byId: boolean
}

/** One test app's record: its database's indexes and the shapes it sent. */
export interface QueryShapeRecord {
  /** The package whose suite ran (jest runs in its folder: services/<service>). */
  service: string
  /** The test database (one per service test app), for the report. */
  database: string
  /** The test file that started the app, for the report. */
  testFile: string
  /** Collection name to each index's key fields, in order. */
  indexes: Record<string, string[][]>
  shapes: QueryShape[]
}

/**
 * The option a test passes to a query of its own (a look into the database to check an
 * outcome, a code made to expire): the check is about what the services send, so these are
 * not recorded. `countDocuments({ userId }, TEST_QUERY)`.
 */
export const TEST_QUERY = { comment: 'test-only query' } as const

/** A path segment that is a key in a map of ids (an ObjectId, a number, a day). */
const ID_SEGMENT = /^([0-9a-f]{24}|\d+|\d{4}-\d{2}(-\d{2})?|[0-9a-f-]{36})$/i

function normalize(path: string): string {
  return path
    .split('.')
    .map((segment) => (ID_SEGMENT.test(segment) ? '<key>' : segment))
    .join('.')
}

function fieldsOf(filter: Document | undefined): string[] {
  if (!filter || typeof filter !== 'object') return []
  const fields = new Set<string>()
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$or' || key === '$and' || key === '$nor') {
      for (const branch of value as Document[])
        for (const field of fieldsOf(branch)) fields.add(field)
    } else if (!key.startsWith('$')) {
      fields.add(normalize(key))
    }
  }
  return [...fields]
}

function isIdEquality(filter: Document | undefined): boolean {
  if (!filter || filter._id === undefined) return false
  const id = filter._id as unknown
  if (id === null || typeof id !== 'object' || Array.isArray(id)) return true
  // An ObjectId is an object without operators; an equality or $in on _id is a point lookup.
  const keys = Object.keys(id)
  return keys.length === 0 || !keys.some((key) => key.startsWith('$')) || '$in' in id || '$eq' in id
}

const sortOf = (sort: Document | undefined): string[] =>
  sort && typeof sort === 'object' ? Object.keys(sort).map(normalize) : []

function shape(
  command: string,
  collection: string,
  filter?: Document,
  sort?: Document,
): QueryShape {
  return {
    command,
    collection,
    filter: fieldsOf(filter),
    sort: sortOf(sort),
    byId: isIdEquality(filter),
  }
}

/** The queries in one command as the driver sends it (writes without a query have none). */
export function shapesOf(
  event: Pick<CommandStartedEvent, 'command' | 'commandName'>,
): QueryShape[] {
  const { command, commandName } = event
  const collection = command[commandName] as unknown
  if (typeof collection !== 'string') return []
  switch (commandName) {
    case 'find':
      return [shape(commandName, collection, command.filter, command.sort)]
    case 'findAndModify':
      return [shape(commandName, collection, command.query, command.sort)]
    case 'count':
    case 'distinct':
      return [shape(commandName, collection, command.query)]
    case 'update':
      return (command.updates as Array<{ q: Document }>).map((u) =>
        shape(commandName, collection, u.q),
      )
    case 'delete':
      return (command.deletes as Array<{ q: Document }>).map((d) =>
        shape(commandName, collection, d.q),
      )
    case 'aggregate': {
      const pipeline = command.pipeline as Document[]
      const match = pipeline[0]?.$match as Document | undefined
      const sortStage = (match ? pipeline[1] : pipeline[0])?.$sort as Document | undefined
      return [shape(commandName, collection, match, sortStage)]
    }
    default:
      return []
  }
}

/**
 * Whether one of the collection's indexes serves the shape on MongoDB: the primary key for a
 * lookup by `_id`; otherwise an index that starts with a filtered field and holds every
 * filtered and sorted field (so the server reads index entries of matching documents only and
 * never sorts in memory), or, for a sort alone, one that starts with the sort.
 */
export function isServed(query: QueryShape, indexes: string[][]): boolean {
  if (query.byId) return true
  const all = [['_id'], ...indexes]
  if (query.filter.length === 0) {
    return (
      query.sort.length > 0 && all.some((keys) => query.sort.every((field, i) => keys[i] === field))
    )
  }
  return all.some(
    (keys) =>
      query.filter.includes(keys[0]!) &&
      query.filter.every((field) => keys.includes(field)) &&
      query.sort.every((field) => keys.includes(field)),
  )
}

/** A whole-collection read: nothing filtered, nothing sorted (a read model's load, a sweep of all). */
export const isWholeCollectionRead = (query: QueryShape) =>
  !query.byId && query.filter.length === 0 && query.sort.length === 0

const key = (query: QueryShape) => JSON.stringify(query)

/** The test file being run (jest's expect knows it), for the report. */
function currentTestFile(): string {
  const jestExpect = (globalThis as { expect?: { getState(): { testPath?: string } } }).expect
  return jestExpect?.getState().testPath ?? 'unknown'
}

/**
 * Records what the apps of one test database send while the test file runs (`attach` each
 * instance's client); `flush` writes the shapes and the database's indexes to
 * QUERY_SHAPES_DIR (set by scripts/test.sh; unset, nothing is recorded).
 */
export function recordQueryShapes(db: Db) {
  const dir = process.env.QUERY_SHAPES_DIR
  const shapes = new Map<string, QueryShape>()
  return {
    attach(client: MongoClient) {
      if (!dir) return
      client.on('commandStarted', (event: CommandStartedEvent) => {
        if (event.databaseName !== db.databaseName) return
        if (event.command.comment === TEST_QUERY.comment) return
        for (const query of shapesOf(event)) shapes.set(key(query), query)
      })
    },
    async flush() {
      if (!dir) return
      const indexes: Record<string, string[][]> = {}
      for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
        const declared = await db.collection(name).indexes()
        indexes[name] = declared.map((index) => Object.keys(index.key as Document))
      }
      const record: QueryShapeRecord = {
        service: basename(process.cwd()),
        database: db.databaseName,
        testFile: currentTestFile(),
        indexes,
        shapes: [...shapes.values()],
      }
      mkdirSync(dir, { recursive: true })
      appendFileSync(
        join(dir, `${db.databaseName}-${process.pid}.jsonl`),
        `${JSON.stringify(record)}\n`,
      )
    },
  }
}
