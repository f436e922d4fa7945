/**
 * This browser's Web Push subscription (docs/notifications.md, "Mobile Notifications").
 * Loaded only when the user switches Mobile Notifications (a dynamic import from the settings
 * page): the service worker is registered then, never on a first visit.
 */

/** The service worker at the site root (apps/web/public/sw.js), so its scope is the whole app. */
const SERVICE_WORKER_URL = '/sw.js'

/** PushSubscription.toJSON(), as POST /api/notifications/push/subscriptions takes it. */
export interface PushSubscriptionBody {
  endpoint: string
  expirationTime?: number | null
  keys: { p256dh: string; auth: string }
}

export type SubscribeOutcome =
  | { outcome: 'subscribed'; subscription: PushSubscriptionBody }
  | { outcome: 'denied' }
  | { outcome: 'unsupported' }

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  )
}

/**
 * Asks the permission (the browser's own prompt, once: a refusal is remembered by the
 * browser), registers the service worker and subscribes with the server's VAPID key. A
 * subscription made with another key (the server's pair changed) is replaced.
 */
export async function subscribeThisDevice(publicKey: string): Promise<SubscribeOutcome> {
  if (!pushSupported()) return { outcome: 'unsupported' }
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') return { outcome: 'denied' }
  await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' })
  const registration = await navigator.serviceWorker.ready
  const applicationServerKey = base64UrlToBytes(publicKey)
  const existing = await registration.pushManager.getSubscription()
  if (existing && !sameKey(existing.options.applicationServerKey, applicationServerKey)) {
    await existing.unsubscribe()
  }
  const subscription =
    existing && sameKey(existing.options.applicationServerKey, applicationServerKey)
      ? existing
      : await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey })
  const json = subscription.toJSON()
  if (!json.endpoint || !json.keys?.p256dh || !json.keys.auth) return { outcome: 'unsupported' }
  return {
    outcome: 'subscribed',
    subscription: {
      endpoint: json.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: { p256dh: json.keys.p256dh, auth: json.keys.auth },
    },
  }
}

/** Ends this browser's subscription; answers its endpoint for the server to forget, if any. */
export async function unsubscribeThisDevice(): Promise<string | null> {
  if (!pushSupported()) return null
  const registration = await navigator.serviceWorker.getRegistration('/')
  const subscription = await registration?.pushManager.getSubscription()
  if (!subscription) return null
  const { endpoint } = subscription
  await subscription.unsubscribe()
  return endpoint
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value.replace(/-/g, '+').replace(/_/g, '/')
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4)
  const binary = atob(padded)
  const bytes = new Uint8Array(new ArrayBuffer(binary.length))
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index)
  return bytes
}

function sameKey(current: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!current || current.byteLength !== wanted.length) return false
  const bytes = new Uint8Array(current)
  return bytes.every((byte, index) => byte === wanted[index])
}
