import type { FastifyRequest } from 'fastify'
import {
  SECURED,
  SavedSearchChangeSchema,
  SavedSearchCreateSchema,
  SavedSearchDeletedSchema,
  SavedSearchIdParamsSchema,
  SavedSearchListSchema,
  SavedSearchSchema,
  SavedSearchUnsubscribeQuerySchema,
  SavedSearchUnsubscribedSchema,
  errorResponses,
  type SavedSearch,
} from '@marketplace/contracts/api'
import { MAX_SAVED_SEARCHES } from '@marketplace/contracts/marketplace'
import { ConflictError, NotFoundError, callerOf, type ServiceApp } from '@marketplace/service-kit'
import {
  SavedSearchMessages,
  readSavedSearchName,
  readSavedSearchQuery,
} from './saved-search-input'
import type { SavedSearchIndex } from './saved-search-index'
import {
  SavedSearchLimitReached,
  type SavedSearchDocument,
  type SavedSearchesRepository,
} from './saved-searches-repository'
import { searchIdOfToken } from './unsubscribe-token'

const tags = ['notifications']
const BASE = '/api/notifications/saved-searches'

export function savedSearchView(search: SavedSearchDocument): SavedSearch {
  return {
    _id: search._id,
    name: search.name,
    query: search.query,
    paused: search.paused,
    email: search.email,
    createdAt: search.createdAt.toISOString(),
    updatedAt: search.updatedAt.toISOString(),
  }
}

/**
 * The caller's saved searches (docs/saved-searches.md). The user is the token's; an id that
 * is not the caller's answers 404 as an unknown one does. Every change goes to this
 * instance's index at once (the others catch up within a second).
 */
export async function savedSearchesRoutes(
  app: ServiceApp,
  deps: { searches: SavedSearchesRepository; index: SavedSearchIndex },
) {
  app.addHook('preHandler', app.authenticate)
  const me = (request: FastifyRequest) => callerOf(request).userId

  app.get(
    BASE,
    {
      schema: {
        tags,
        summary: "The caller's saved searches, oldest first",
        security: SECURED,
        response: { 200: SavedSearchListSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({
      savedSearches: (await deps.searches.listOf(me(request))).map(savedSearchView),
      limit: MAX_SAVED_SEARCHES,
    }),
  )

  app.post(
    BASE,
    {
      schema: {
        tags,
        summary: `Saves a feed or search state with a name (at most ${MAX_SAVED_SEARCHES} per user: 409 past it)`,
        security: SECURED,
        body: SavedSearchCreateSchema,
        response: { 201: SavedSearchSchema, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const { criteria, query } = readSavedSearchQuery(request.body.query)
      const name = readSavedSearchName(request.body.name)
      try {
        const saved = await deps.searches.create(
          {
            userId: me(request),
            name,
            query,
            criteria,
            paused: request.body.paused ?? false,
            email: request.body.email ?? 'immediate',
          },
          MAX_SAVED_SEARCHES,
        )
        deps.index.put(saved)
        return reply.code(201).send(savedSearchView(saved))
      } catch (error) {
        if (error instanceof SavedSearchLimitReached)
          throw new ConflictError(SavedSearchMessages.limitReached, 'SAVED_SEARCH_LIMIT')
        throw error
      }
    },
  )

  app.patch(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary:
          "Renames one of the caller's saved searches, pauses or resumes it, or sets its e-mail",
        security: SECURED,
        params: SavedSearchIdParamsSchema,
        body: SavedSearchChangeSchema,
        response: { 200: SavedSearchSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { name, email, paused } = request.body
      const changed = await deps.searches.change(request.params.id, me(request), {
        ...(name !== undefined ? { name: readSavedSearchName(name) } : {}),
        ...(email !== undefined ? { email } : {}),
        ...(paused !== undefined ? { paused } : {}),
      })
      if (!changed) throw new NotFoundError(SavedSearchMessages.notFound)
      deps.index.put(changed)
      return savedSearchView(changed)
    },
  )

  app.delete(
    `${BASE}/:id`,
    {
      schema: {
        tags,
        summary: "Deletes one of the caller's saved searches",
        security: SECURED,
        params: SavedSearchIdParamsSchema,
        response: { 200: SavedSearchDeletedSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const removed = await deps.searches.remove(request.params.id, me(request))
      if (!removed) throw new NotFoundError(SavedSearchMessages.notFound)
      deps.index.remove(request.params.id)
      return { deleted: true }
    },
  )
}

/**
 * The e-mail's one-click unsubscribe, without a session: the signed token names the search
 * (unsubscribe-token.ts). RFC 8058: the mail client POSTs `List-Unsubscribe=One-Click` as a
 * form to the List-Unsubscribe URL, whose query carries the token; the web page the link
 * opens POSTs the token as JSON. Either turns the search's e-mail off (the in-app notices go
 * on: pausing is Settings' choice).
 */
export async function savedSearchUnsubscribeRoutes(
  app: ServiceApp,
  deps: { searches: SavedSearchesRepository; index: SavedSearchIndex; secret: string },
) {
  // Mail clients send the one-click POST as a form; its only field is a constant.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )

  app.post(
    `${BASE}/unsubscribe`,
    {
      schema: {
        tags,
        summary:
          "Stops a saved search's e-mails from its e-mail's signed link (RFC 8058 one-click; no session)",
        security: [],
        querystring: SavedSearchUnsubscribeQuerySchema,
        response: { 200: SavedSearchUnsubscribedSchema, ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const body = (request.body ?? {}) as Partial<Record<string, unknown>>
      const query = request.query as Partial<Record<string, unknown>>
      const token =
        typeof body.token === 'string'
          ? body.token
          : typeof query.token === 'string'
            ? query.token
            : ''
      const searchId = token.length <= 500 ? searchIdOfToken(deps.secret, token) : null
      if (!searchId) throw new NotFoundError(SavedSearchMessages.badLink, 'INVALID_LINK')
      const search = await deps.searches.findById(searchId)
      if (!search) throw new NotFoundError(SavedSearchMessages.badLink, 'INVALID_LINK')
      const changed = await deps.searches.change(search._id, search.userId, { email: 'off' })
      if (changed) deps.index.put(changed)
      return { name: search.name }
    },
  )
}
