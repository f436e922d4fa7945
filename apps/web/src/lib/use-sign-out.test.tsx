import { act, renderHook } from '@testing-library/react'
import type { ReactNode } from 'react'
import { Provider } from 'react-redux'
import { createStore } from '@/app/store'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import { useSignOut } from '@/lib/use-sign-out'
import { signIn, stubFetch } from '@/test/helpers'

/** A browser that holds a push subscription for this site (jsdom has no service workers). */
function fakePushSubscription(endpoint: string) {
  const unsubscribe = jest.fn(async () => true)
  const subscription = { endpoint, unsubscribe }
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      getRegistration: async () => ({ pushManager: { getSubscription: async () => subscription } }),
    },
  })
  Object.defineProperty(window, 'PushManager', {
    configurable: true,
    value: function PushManager() {},
  })
  Object.defineProperty(window, 'Notification', {
    configurable: true,
    value: { permission: 'granted' },
  })
  return {
    unsubscribe,
    remove() {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker
      delete (window as { PushManager?: unknown }).PushManager
      delete (window as { Notification?: unknown }).Notification
    },
  }
}

describe("useSignOut and this browser's pushes", () => {
  it('ends the push subscription and has the server forget it, with the token, before logging out', async () => {
    const device = fakePushSubscription('https://fcm.googleapis.com/fcm/send/abc')
    const calls: string[] = []
    const fetchStub = stubFetch(async (path, request) => {
      calls.push(
        `${request.method} ${path} ${request.headers.get('authorization') ?? ''} ${await request.text()}`,
      )
      return new Response(null, { status: 204 })
    })
    try {
      const store = createStore()
      signIn(store)
      const wrapper = ({ children }: { children: ReactNode }) => (
        <Provider store={store}>{children}</Provider>
      )
      const { result } = renderHook(() => useSignOut(), { wrapper })
      await act(() => result.current())
      expect(device.unsubscribe).toHaveBeenCalledTimes(1)
      expect(calls).toEqual([
        'DELETE /api/notifications/push/subscriptions Bearer token {"endpoint":"https://fcm.googleapis.com/fcm/send/abc"}',
        'GET /logout  ',
      ])
      expect(selectIsLoggedIn(store.getState())).toBe(false)
    } finally {
      fetchStub.restore()
      device.remove()
    }
  })

  it('without a subscription, signs out with no push call', async () => {
    const calls: string[] = []
    const fetchStub = stubFetch((path, request) => {
      calls.push(`${request.method} ${path}`)
      return new Response(null, { status: 204 })
    })
    try {
      const store = createStore()
      signIn(store)
      const wrapper = ({ children }: { children: ReactNode }) => (
        <Provider store={store}>{children}</Provider>
      )
      const { result } = renderHook(() => useSignOut(), { wrapper })
      await act(() => result.current())
      expect(calls).toEqual(['GET /logout'])
    } finally {
      fetchStub.restore()
    }
  })
})
