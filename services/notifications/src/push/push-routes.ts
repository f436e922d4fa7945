import type { FastifyRequest } from 'fastify'
import { SECURED, errorResponses } from '@marketplace/contracts/api'
import { callerOf, type ServiceApp } from '@marketplace/service-kit'
import type { PushDevicesRepository } from './push-devices-repository'
import {
  PushEndpointBodySchema,
  PushPublicKeySchema,
  PushSubscribedSchema,
  PushSubscriptionBodySchema,
  PushUnsubscribedSchema,
} from './push-schemas'
import { readPushEndpoint, readPushKey, type PushEndpointRules } from './push-subscription-input'

const tags = ['notifications']

/**
 * Mobile Notifications as Web Push: the key a browser subscribes with, and the
 * caller's own devices. The user is the token's: a device is added to, or removed from, the
 * caller's devices only.
 */
export async function pushRoutes(
  app: ServiceApp,
  deps: {
    devices: PushDevicesRepository
    publicKey: string
    rules: PushEndpointRules
    maxDevices: number
  },
) {
  app.addHook('preHandler', app.authenticate)
  const me = (request: FastifyRequest) => callerOf(request).userId

  app.get(
    '/api/notifications/push/public-key',
    {
      schema: {
        tags,
        summary: 'The VAPID public key a browser subscribes to pushes with',
        security: SECURED,
        response: { 200: PushPublicKeySchema, ...errorResponses(401) },
      },
    },
    async () => ({ publicKey: deps.publicKey }),
  )

  app.post(
    '/api/notifications/push/subscriptions',
    {
      schema: {
        tags,
        summary:
          "Adds this browser's push subscription to the caller's devices (or renews it); past the limit the oldest device goes",
        security: SECURED,
        body: PushSubscriptionBodySchema,
        response: { 200: PushSubscribedSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { endpoint, keys } = request.body
      return deps.devices.add(
        me(request),
        {
          endpoint: readPushEndpoint(endpoint, deps.rules),
          p256dh: readPushKey(keys.p256dh, 'p256dh'),
          auth: readPushKey(keys.auth, 'auth'),
          subscribedAt: new Date(),
        },
        deps.maxDevices,
      )
    },
  )

  app.delete(
    '/api/notifications/push/subscriptions',
    {
      schema: {
        tags,
        summary: "Removes one of the caller's devices (this browser turning the channel off)",
        security: SECURED,
        body: PushEndpointBodySchema,
        response: { 200: PushUnsubscribedSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ removed: await deps.devices.remove(me(request), request.body.endpoint) }),
  )
}
