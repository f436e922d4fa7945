import { Type, type Static } from '@sinclair/typebox'

// The Web Push routes' schemas. They live with the service until the web app needs them from
// @marketplace/contracts/api (apps/web/src/lib/web-push.ts states the same shapes).

export const PushPublicKeySchema = Type.Object(
  {
    publicKey: Type.String({
      description: "The VAPID public key, base64url: pushManager.subscribe's applicationServerKey",
    }),
  },
  { additionalProperties: false },
)

/** PushSubscription.toJSON() of the browser, as it is. */
export const PushSubscriptionBodySchema = Type.Object(
  {
    endpoint: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: "The push service's URL for this browser (https, a known push service)",
    }),
    expirationTime: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
    keys: Type.Object({
      p256dh: Type.String({ maxLength: 200, description: 'P-256 public key, base64url' }),
      auth: Type.String({ maxLength: 100, description: 'Authentication secret, base64url' }),
    }),
  },
  { description: "This device's push subscription" },
)
export type PushSubscriptionBody = Static<typeof PushSubscriptionBodySchema>

export const PushSubscribedSchema = Type.Object(
  {
    devices: Type.Integer({
      minimum: 1,
      description: "How many devices receive the caller's pushes now",
    }),
  },
  { additionalProperties: false },
)

export const PushEndpointBodySchema = Type.Object({
  endpoint: Type.String({ minLength: 1, maxLength: 2048, description: 'The device to forget' }),
})

export const PushUnsubscribedSchema = Type.Object(
  {
    removed: Type.Boolean({
      description: 'false when the caller had no such device (removing is idempotent)',
    }),
  },
  { additionalProperties: false },
)
