import type { FastifyRequest } from 'fastify'
import {
  ConversationParamsSchema,
  MessageHistoryQuerySchema,
  MessageHistorySchema,
  MessageViewSchema,
  SECURED,
  SendMessageBodySchema,
  errorResponses,
} from '@marketplace/contracts/api'
import { callerOf, exactTypes, type ServiceApp } from '@marketplace/service-kit'
import type { MessagesService } from './messages-service'

const tags = ['conversations']

/**
 * A conversation's messages: its parties read the history and write while it
 * is open (409 with the reason once read-only, 429 with Retry-After past 30 a minute).
 */
export async function messagesRoutes(app: ServiceApp, deps: { service: MessagesService }) {
  app.addHook('onRequest', app.authenticate)
  const context = (request: FastifyRequest) => ({
    callerId: callerOf(request).userId,
    requestId: request.id,
  })

  app.get(
    '/api/conversations/:id/messages',
    {
      schema: {
        tags,
        summary: 'The messages, newest first, 30 a page (pass nextCursor as `before` for older)',
        security: SECURED,
        params: ConversationParamsSchema,
        querystring: MessageHistoryQuerySchema,
        response: { 200: MessageHistorySchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) =>
      deps.service.history(request.params.id, callerOf(request).userId, request.query.before),
  )

  app.post(
    '/api/conversations/:id/messages',
    {
      schema: {
        tags,
        summary:
          'Send a message (201), or get the one an earlier send with this clientId stored (200)',
        security: SECURED,
        params: ConversationParamsSchema,
        body: SendMessageBodySchema,
        response: {
          200: MessageViewSchema,
          201: MessageViewSchema,
          ...errorResponses(400, 401, 404, 409, 429),
        },
      },
      validatorCompiler: exactTypes,
    },
    async (request, reply) => {
      const sent = await deps.service.send(request.params.id, request.body, context(request))
      return reply.code(sent.created ? 201 : 200).send(sent.message)
    },
  )
}
