/* Marketplace service worker: Mobile Notifications by Web Push (docs/notifications.md).
 * Registered only when the user turns Mobile Notifications on (src/lib/web-push.ts). Served at
 * the site root with Cache-Control: no-cache (the gateway's SPA route), so a new version is
 * picked up by the browser's update check. It caches nothing: it only shows pushes. */

const DEFAULT_TITLE = 'Marketplace'

self.addEventListener('install', () => {
  self.skipWaiting()
})

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim())
})

/** A path of this app only: a push never opens another site. */
function appUrl(link) {
  const path =
    typeof link === 'string' && link.startsWith('/') && !link.startsWith('//') ? link : '/'
  return new URL(path, self.location.origin).href
}

function readPayload(event) {
  try {
    return event.data ? event.data.json() : {}
  } catch {
    return {}
  }
}

// The payload of services/notifications/src/push/push-sender.ts: { title, body, link, tag }.
self.addEventListener('push', (event) => {
  const payload = readPayload(event)
  const title = typeof payload.title === 'string' ? payload.title : DEFAULT_TITLE
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof payload.body === 'string' ? payload.body : '',
      // One notice per notification, whatever reaches the browser twice.
      tag: typeof payload.tag === 'string' ? payload.tag : undefined,
      icon: '/favicon.svg',
      data: { url: appUrl(payload.link) },
    }),
  )
})

// A click focuses a tab already on the linked page, or opens it.
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = (event.notification.data && event.notification.data.url) || appUrl('/')
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const open = windows.find((client) => client.url === url)
      if (open) return open.focus()
      return self.clients.openWindow(url)
    })(),
  )
})
