import type { FastifyRequest } from 'fastify'
import {
  ConversationByRequestParamsSchema,
  ConversationListQuerySchema,
  ConversationListSchema,
  ConversationParamsSchema,
  ConversationReadSchema,
  ConversationViewSchema,
  SECURED,
  UnreadTotalSchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf, type ServiceApp } from '@marketplace/service-kit'
import type { ConversationsService } from './conversations-service'

const tags = ['conversations']

/**
 * The caller's conversations. Every route needs a token; a conversation the
 * caller is not a party of answers 404, exactly as one that does not exist.
 */
export async function conversationsRoutes(
  app: ServiceApp,
  deps: { service: ConversationsService },
) {
  // On request, before the body is read: a guest gets 401 whatever they send.
  app.addHook('onRequest', app.authenticate)
  const callerId = (request: FastifyRequest) => callerOf(request).userId

  app.get(
    '/api/conversations',
    {
      schema: {
        tags,
        summary:
          "The caller's conversations, newest activity first (30 a page), with the unread total",
        security: SECURED,
        querystring: ConversationListQuerySchema,
        response: { 200: ConversationListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => deps.service.list(callerId(request), request.query.cursor),
  )

  app.get(
    '/api/conversations/unread',
    {
      schema: {
        tags,
        summary: "Unread messages across the caller's conversations (the badge)",
        security: SECURED,
        response: { 200: UnreadTotalSchema, ...errorResponses(401) },
      },
    },
    async (request) => deps.service.unreadTotal(callerId(request)),
  )

  app.get(
    '/api/conversations/by-request/:requestId',
    {
      schema: {
        tags,
        summary: 'The conversation a request opened (post or person request)',
        security: SECURED,
        params: ConversationByRequestParamsSchema,
        response: { 200: ConversationViewSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => deps.service.byRequest(request.params.requestId, callerId(request)),
  )

  app.get(
    '/api/conversations/:id',
    {
      schema: {
        tags,
        summary: 'One conversation, as the caller (a party) sees it',
        security: SECURED,
        params: ConversationParamsSchema,
        response: { 200: ConversationViewSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => deps.service.view(request.params.id, callerId(request)),
  )

  app.post(
    '/api/conversations/:id/read',
    {
      schema: {
        tags,
        summary:
          'Mark everything in the conversation read by the caller (the other side\'s "Seen")',
        security: SECURED,
        params: ConversationParamsSchema,
        response: { 200: ConversationReadSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      deps.service.markRead(request.params.id, {
        callerId: callerId(request),
        requestId: request.id,
      }),
  )
}
