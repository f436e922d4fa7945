import type { FastifyRequest } from 'fastify'
import {
  NotificationIdParamsSchema,
  NotificationPreferencesChangeSchema,
  NotificationPreferencesSchema,
  NotificationsClearedSchema,
  NotificationsMarkedReadSchema,
  NotificationsPageQuerySchema,
  NotificationsPageSchema,
  NotificationsUnreadCountSchema,
  SECURED,
  errorResponses,
} from '@marketplace/contracts/api'
import {
  NOTIFICATION_PAGE_SIZE,
  type NotificationPreferences,
} from '@marketplace/contracts/marketplace'
import { callerOf, integerParam, type ServiceApp } from '@marketplace/service-kit'
import { readPreferences } from '../recipients/preferences-input'
import type { Recipients } from '../recipients/recipients-repository'
import type { NotificationsService } from './notifications-service'

const tags = ['notifications']

/**
 * The dropdown and the preferences. Every route is the caller's own:
 * the user comes from the token, never from the request, so nobody reads or changes another
 * user's notifications (one that is not yours answers 404).
 */
export async function notificationsRoutes(
  app: ServiceApp,
  deps: { service: NotificationsService; recipients: Recipients },
) {
  app.addHook('preHandler', app.authenticate)
  const me = (request: FastifyRequest) => callerOf(request).userId

  app.get(
    '/api/notifications',
    {
      schema: {
        tags,
        summary: "One page of the caller's notifications, newest first, with the unread count",
        security: SECURED,
        querystring: NotificationsPageQuerySchema,
        response: { 200: NotificationsPageSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const page = integerParam(request.query.page, 'page', { min: 1, max: 10_000, fallback: 1 })
      const limit = integerParam(request.query.limit, 'limit', {
        min: 1,
        max: 50,
        fallback: NOTIFICATION_PAGE_SIZE,
      })
      return deps.service.page(me(request), page, limit)
    },
  )

  app.get(
    '/api/notifications/unread-count',
    {
      schema: {
        tags,
        summary: "The caller's unread count, for the bell",
        security: SECURED,
        response: { 200: NotificationsUnreadCountSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ count: await deps.service.unreadCount(me(request)) }),
  )

  app.patch(
    '/api/notifications/mark-all-read',
    {
      schema: {
        tags,
        summary: "Marks all the caller's notifications read",
        security: SECURED,
        response: { 200: NotificationsMarkedReadSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ unreadCount: await deps.service.markAllRead(me(request)) }),
  )

  app.delete(
    '/api/notifications/clear-read',
    {
      schema: {
        tags,
        summary: "Removes the caller's read notifications (Clear Read)",
        security: SECURED,
        response: { 200: NotificationsClearedSchema, ...errorResponses(401) },
      },
    },
    async (request) => ({ deleted: await deps.service.clearRead(me(request)) }),
  )

  app.get(
    '/api/notifications/preferences',
    {
      schema: {
        tags,
        summary: "The caller's six notification preferences",
        security: SECURED,
        response: { 200: NotificationPreferencesSchema, ...errorResponses(401) },
      },
    },
    async (request) => deps.recipients.preferencesOf(me(request)),
  )

  app.put(
    '/api/notifications/preferences',
    {
      // A flag that is not true or false is answered by readPreferences, with its own message.
      attachValidation: true,
      schema: {
        tags,
        summary: 'Saves the flags sent; the others keep their value. Answers all six',
        security: SECURED,
        body: NotificationPreferencesChangeSchema,
        response: { 200: NotificationPreferencesSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => deps.recipients.savePreferences(me(request), preferenceChanges(request)),
  )

  app.patch(
    '/api/notifications/:id/read',
    {
      schema: {
        tags,
        summary: "Marks one of the caller's notifications read; answers the new unread count",
        security: SECURED,
        params: NotificationIdParamsSchema,
        response: { 200: NotificationsMarkedReadSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({
      unreadCount: await deps.service.markRead(request.params.id, me(request)),
    }),
  )
}

function preferenceChanges(request: FastifyRequest): Partial<NotificationPreferences> {
  const changes = readPreferences(request.body)
  // What is left for the validator is a body that is no object at all; a null one changes
  // nothing, as it always did.
  if (request.validationError && request.body !== null) throw request.validationError
  return changes
}
