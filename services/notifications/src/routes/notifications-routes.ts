import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from '@sinclair/typebox'
import { NOTIFICATION_PAGE_SIZE } from '@marketplace/contracts/marketplace'
import { LooseBody, callerOf, integerParam } from '@marketplace/service-kit'
import { readPreferences } from '../recipients/preferences-input'
import type { Recipients } from '../recipients/recipients-repository'
import type { NotificationsService } from '../notifications/notifications-service'

const PageQuery = Type.Object({
  page: Type.Optional(Type.String({ maxLength: 16 })),
  limit: Type.Optional(Type.String({ maxLength: 16 })),
})
const IdParams = Type.Object({ id: Type.String({ maxLength: 200 }) })

/**
 * The dropdown and the preferences (spec 1 §7, spec 2 §7). Every route is the caller's own:
 * the user comes from the token, never from the request, so nobody reads or changes another
 * user's notifications (one that is not yours answers 404).
 */
export async function notificationsRoutes(
  app: FastifyInstance,
  deps: { service: NotificationsService; recipients: Recipients },
) {
  app.addHook('preHandler', app.authenticate)
  const me = (request: FastifyRequest) => callerOf(request).userId

  app.get('/api/notifications', { schema: { querystring: PageQuery } }, async (request) => {
    const query = request.query as { page?: string; limit?: string }
    const page = integerParam(query.page, 'page', { min: 1, max: 10_000, fallback: 1 })
    const limit = integerParam(query.limit, 'limit', {
      min: 1,
      max: 50,
      fallback: NOTIFICATION_PAGE_SIZE,
    })
    return deps.service.page(me(request), page, limit)
  })

  app.get('/api/notifications/unread-count', async (request) => ({
    count: await deps.service.unreadCount(me(request)),
  }))

  app.patch('/api/notifications/mark-all-read', async (request) => ({
    unreadCount: await deps.service.markAllRead(me(request)),
  }))

  app.delete('/api/notifications/clear-read', async (request) => ({
    deleted: await deps.service.clearRead(me(request)),
  }))

  app.get('/api/notifications/preferences', async (request) =>
    deps.recipients.preferencesOf(me(request)),
  )

  app.put('/api/notifications/preferences', { schema: { body: LooseBody } }, async (request) =>
    deps.recipients.savePreferences(me(request), readPreferences(request.body)),
  )

  app.patch('/api/notifications/:id/read', { schema: { params: IdParams } }, async (request) => {
    const { id } = request.params as { id: string }
    return { unreadCount: await deps.service.markRead(id, me(request)) }
  })
}
