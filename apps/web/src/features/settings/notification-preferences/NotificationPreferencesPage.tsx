import { useCallback, useEffect, useRef, useState } from 'react'
import {
  NOTIFICATION_PREFERENCE_DEFAULTS,
  type NotificationPreferences,
} from '@marketplace/contracts/marketplace'
import { Messages } from '@marketplace/contracts/validation'
import { useAppSelector } from '@/app/hooks'
import { selectIsLoggedIn } from '@/lib/auth-slice'
import {
  useGetPreferencesQuery,
  useUpdatePreferencesMutation,
} from '@/features/settings/account-api'
import {
  useLazyGetPushPublicKeyQuery,
  useSubscribePushMutation,
  useUnsubscribePushMutation,
} from '@/features/settings/notification-preferences/push-api'
import { Toast, type ToastMessage } from '@/components/ui/Toast'
import '@/features/settings/settings.css'
import '@/features/settings/notification-preferences/notification-preferences.css'
import { PAGE_HEADINGS } from '@/config/page-headings'

type Flag = keyof NotificationPreferences

interface Choice {
  flag: Flag
  label: string
  description: string
}

const CHANNELS: Choice[] = [
  {
    flag: 'emailEnabled',
    label: 'Email Notifications',
    description: 'Receive notifications by email.',
  },
  {
    flag: 'mobileEnabled',
    label: 'Mobile Notifications',
    // docs/notifications.md, "Mobile Notifications": Web Push to each device turned on.
    description: 'Receive push notifications on this device.',
  },
]

/** Why Mobile Notifications stayed off on this device. */
const PUSH_DENIED =
  'Notifications are blocked for this site. Allow them in your browser settings, then turn Mobile Notifications on again.'
const PUSH_UNSUPPORTED = 'This browser cannot receive push notifications.'

/** The push-subscription code, kept out of every first load. */
const loadWebPush = () => import('@/lib/web-push')

const TYPES: Choice[] = [
  {
    flag: 'postRequestsEnabled',
    label: 'Post Requests',
    description: 'Someone requests on your post.',
  },
  {
    flag: 'postFavoritesEnabled',
    label: 'Post Favorites',
    description: 'Someone favorites your post.',
  },
  {
    flag: 'requestStatusEnabled',
    label: 'Request Status',
    description: 'Your request is accepted.',
  },
  {
    // Noticed and mailed while you are away, once per conversation until read.
    flag: 'messagesEnabled',
    label: 'Messages',
    description: 'Someone sends you a message while you are away.',
  },
]

const m = Messages.notificationPreferences

/** Channels and types; a toggle is optimistic and rolled back on failure. */
export default function NotificationPreferencesPage() {
  const loggedIn = useAppSelector(selectIsLoggedIn)
  const { data, isLoading, isError, refetch } = useGetPreferencesQuery(undefined, {
    skip: !loggedIn,
  })
  const [updatePreferences] = useUpdatePreferencesMutation()
  const [getPushPublicKey] = useLazyGetPushPublicKeyQuery()
  const [subscribePush] = useSubscribePushMutation()
  const [unsubscribePush] = useUnsubscribePushMutation()
  const [toast, setToast] = useState<ToastMessage | null>(null)
  const counter = useRef(0)

  const show = useCallback((text: string, tone: ToastMessage['tone']) => {
    counter.current += 1
    setToast({ id: counter.current, text, tone })
  }, [])
  const dismiss = useCallback(() => setToast(null), [])

  useEffect(() => {
    if (isError) show(m.loadFailed, 'error')
  }, [isError, show])

  const preferences: NotificationPreferences = data ?? { ...NOTIFICATION_PREFERENCE_DEFAULTS }

  /**
   * On: this browser asks the permission and subscribes before the channel is saved on, so a
   * refusal leaves it off. Off: saved off first (no device gets pushes any more), then this
   * browser's subscription ends; the user's other devices keep theirs for when it is on again.
   */
  const switchMobile = async (on: boolean) => {
    const webPush = await loadWebPush()
    if (on) {
      const { publicKey } = await getPushPublicKey().unwrap()
      const device = await webPush.subscribeThisDevice(publicKey)
      if (device.outcome !== 'subscribed') {
        show(device.outcome === 'denied' ? PUSH_DENIED : PUSH_UNSUPPORTED, 'error')
        return
      }
      await subscribePush(device.subscription).unwrap()
      await updatePreferences({ ...preferences, mobileEnabled: true }).unwrap()
    } else {
      await updatePreferences({ ...preferences, mobileEnabled: false }).unwrap()
      const endpoint = await webPush.unsubscribeThisDevice().catch(() => null)
      // The channel is off already; a device the server keeps is forgotten at its next push.
      if (endpoint)
        await unsubscribePush({ endpoint })
          .unwrap()
          .catch(() => undefined)
    }
    show(m.updated, 'success')
  }

  const toggle = async (flag: Flag) => {
    if (!loggedIn) {
      show(m.loginToUpdate, 'error')
      return
    }
    try {
      const current = preferences[flag] ?? NOTIFICATION_PREFERENCE_DEFAULTS[flag]
      if (flag === 'mobileEnabled') {
        await switchMobile(!current)
        return
      }
      await updatePreferences({ ...preferences, [flag]: !current }).unwrap()
      show(m.updated, 'success')
    } catch {
      show(m.updateFailed, 'error')
    }
  }

  const group = (title: string, choices: Choice[]) => (
    <section className="card card-body preferences-group" aria-labelledby={`prefs-${title}`}>
      <h2 id={`prefs-${title}`}>{title}</h2>
      {choices.map((choice) => (
        <div key={choice.flag} className="preference-row">
          <div className="preference-text">
            <label htmlFor={`pref-${choice.flag}`}>{choice.label}</label>
            <p className="muted" id={`pref-${choice.flag}-help`}>
              {choice.description}
            </p>
          </div>
          <input
            id={`pref-${choice.flag}`}
            type="checkbox"
            role="switch"
            className="preference-switch"
            aria-describedby={`pref-${choice.flag}-help`}
            // A flag newer than the saved answer (Messages) shows its default until saved.
            checked={preferences[choice.flag] ?? NOTIFICATION_PREFERENCE_DEFAULTS[choice.flag]}
            disabled={loggedIn && (isLoading || isError)}
            onChange={() => void toggle(choice.flag)}
          />
        </div>
      ))}
    </section>
  )

  return (
    <div className="settings-page">
      <h1>{PAGE_HEADINGS.notifications}</h1>
      {isLoading && (
        <p className="page-loading" role="status">
          Loading...
        </p>
      )}
      {isError && (
        <div className="error-state">
          <p>{m.loadFailed}</p>
          <button type="button" className="btn" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      )}
      {group('Channels', CHANNELS)}
      {group('Types', TYPES)}
      <Toast key={toast?.id} toast={toast} onDone={dismiss} />
    </div>
  )
}
