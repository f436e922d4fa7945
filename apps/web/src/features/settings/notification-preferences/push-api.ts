import { api } from '@/lib/api'
import type { PushSubscriptionBody } from '@/lib/web-push'

/** services/notifications' Web Push routes (docs/notifications.md, "Mobile Notifications"). */
export const pushApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The VAPID public key this browser subscribes with. */
    getPushPublicKey: build.query<{ publicKey: string }, void>({
      query: () => '/api/notifications/push/public-key',
    }),
    /** Adds this browser to the caller's devices. */
    subscribePush: build.mutation<{ devices: number }, PushSubscriptionBody>({
      query: (body) => ({ url: '/api/notifications/push/subscriptions', method: 'POST', body }),
    }),
    /** Removes this browser from the caller's devices. */
    unsubscribePush: build.mutation<{ removed: boolean }, { endpoint: string }>({
      query: (body) => ({ url: '/api/notifications/push/subscriptions', method: 'DELETE', body }),
    }),
  }),
})

export const {
  useLazyGetPushPublicKeyQuery,
  useSubscribePushMutation,
  useUnsubscribePushMutation,
} = pushApi
