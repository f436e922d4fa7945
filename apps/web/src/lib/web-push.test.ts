import { subscribeThisDevice, unsubscribeThisDevice } from '@/lib/web-push'

// jsdom has no service workers, Push API or Notification: each test installs what a browser
// would answer, and checks what the module asks of it.
const SERVER_KEY = Buffer.alloc(65, 7)
const SERVER_KEY_TEXT = SERVER_KEY.toString('base64url')

function fakeSubscription(endpoint: string, key: Uint8Array) {
  return {
    endpoint,
    options: {
      applicationServerKey: key.buffer.slice(key.byteOffset, key.byteOffset + key.length),
    },
    unsubscribe: jest.fn(async () => true),
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: 'BKey', auth: 'secret' } }),
  }
}

function installBrowser(permission: NotificationPermission, existing: unknown = null) {
  const subscribe = jest.fn(async (options: { applicationServerKey: Uint8Array }) =>
    fakeSubscription('https://push.example/new', options.applicationServerKey),
  )
  const registration = {
    pushManager: { getSubscription: jest.fn(async () => existing), subscribe },
  }
  const register = jest.fn(async () => registration)
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register,
      ready: Promise.resolve(registration),
      getRegistration: async () => registration,
    },
  })
  Object.defineProperty(window, 'PushManager', {
    configurable: true,
    value: function PushManager() {},
  })
  Object.defineProperty(window, 'Notification', {
    configurable: true,
    value: { requestPermission: jest.fn(async () => permission) },
  })
  return { register, subscribe }
}

afterEach(() => {
  for (const [target, name] of [
    [navigator, 'serviceWorker'],
    [window, 'PushManager'],
    [window, 'Notification'],
  ] as const) {
    delete (target as unknown as Record<string, unknown>)[name]
  }
})

describe('this browser’s push subscription', () => {
  it('is unsupported where the browser has no Push API', async () => {
    expect(await subscribeThisDevice(SERVER_KEY_TEXT)).toEqual({ outcome: 'unsupported' })
    expect(await unsubscribeThisDevice()).toBeNull()
  })

  it('registers no service worker when the permission is refused', async () => {
    const browser = installBrowser('denied')
    expect(await subscribeThisDevice(SERVER_KEY_TEXT)).toEqual({ outcome: 'denied' })
    expect(browser.register).not.toHaveBeenCalled()
  })

  it('subscribes with the server key, registering the worker at the site root', async () => {
    const browser = installBrowser('granted')
    expect(await subscribeThisDevice(SERVER_KEY_TEXT)).toEqual({
      outcome: 'subscribed',
      subscription: {
        endpoint: 'https://push.example/new',
        expirationTime: null,
        keys: { p256dh: 'BKey', auth: 'secret' },
      },
    })
    expect(browser.register).toHaveBeenCalledWith('/sw.js', { scope: '/' })
    const [options] = browser.subscribe.mock.calls[0]!
    expect(Buffer.from(options.applicationServerKey)).toEqual(SERVER_KEY)
  })

  it('replaces a subscription made with another server key, and keeps one made with this one', async () => {
    const stale = fakeSubscription('https://push.example/old', new Uint8Array(65).fill(1))
    const browser = installBrowser('granted', stale)
    await subscribeThisDevice(SERVER_KEY_TEXT)
    expect(stale.unsubscribe).toHaveBeenCalled()
    expect(browser.subscribe).toHaveBeenCalledTimes(1)

    const current = fakeSubscription('https://push.example/current', new Uint8Array(SERVER_KEY))
    const again = installBrowser('granted', current)
    const answer = await subscribeThisDevice(SERVER_KEY_TEXT)
    expect(answer).toMatchObject({ subscription: { endpoint: 'https://push.example/current' } })
    expect(again.subscribe).not.toHaveBeenCalled()
    expect(current.unsubscribe).not.toHaveBeenCalled()
  })

  it('unsubscribing ends the subscription and answers its endpoint', async () => {
    const current = fakeSubscription('https://push.example/current', new Uint8Array(SERVER_KEY))
    installBrowser('granted', current)
    expect(await unsubscribeThisDevice()).toBe('https://push.example/current')
    expect(current.unsubscribe).toHaveBeenCalled()
  })
})
