import type { DomainEvent } from '@marketplace/contracts/events'
import { formatOfferAmount, newMessageNotice, relistLink } from '@marketplace/contracts/marketplace'
import type { NotificationKind } from './notification-document'

/** What one event tells one person: who, which preference switches it, what it says, where it leads. */
export interface Notice {
  recipientId: string
  kind: NotificationKind
  message: string
  link: string
  /**
   * The notification's id when it is not the event's and the recipient's: a saved search's
   * match is once per post and saved search, whichever event announced the post.
   */
  id?: string
  /** The saved search a `saved-search` notice is about (its e-mail follows the search's choice). */
  savedSearchId?: string
}

/** The settings page each kind of notice leads to. */
export const NOTICE_LINKS = {
  requestsOnMyPosts: '/settings-employer-requests',
  postsIRequested: '/settings-worker-job-requested',
  peopleRequestedMe: '/settings-worker-requested-for',
  peopleIRequested: '/settings-employer-workers-requested',
  myPosts: '/settings-employer-jobs',
} as const

/** The thread of a conversation in the web app (ids are `jr:<id>`, `pr:<id>`: path-safe). */
export const conversationLink = (conversationId: string) => `/messages/${conversationId}`

/** What the author of a message a moderator took down is told. */
export const takenDownNotice = (postTitle: string) =>
  `A moderator removed one of your messages in the conversation about "${postTitle}"`

/** The owner's warning, with the day the post is last live ('YYYY-MM-DD', UTC). */
export const expiringNotice = (title: string, expirationDate: string) =>
  `Your post "${title}" expires after ${readableDay(expirationDate)}. Relist it for 30 days?`

/** What a requester still waiting is told when the post closes. */
export const closedNotice = (title: string, reason: 'filled' | 'expired') =>
  reason === 'filled'
    ? `The post "${title}" was filled, so your request was not taken up`
    : `The post "${title}" expired before your request was answered`

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/** 'YYYY-MM-DD' as "Dec 2, 2026" (the same in every time zone: it is a day, not an instant). */
function readableDay(day: string): string {
  const [year, month, date] = day.split('-').map(Number)
  if (!year || !month || !date) return day
  return `${MONTHS[month - 1]} ${date}, ${year}`
}

/**
 * Every notice one event makes: most make one or none (noticeOf), a closed post one for each
 * requester still waiting. Each is stored once per event and recipient.
 */
export function noticesOf(event: DomainEvent): Notice[] {
  if (event.type === 'post.closed') {
    const { data } = event as DomainEvent<'post.closed'>
    return [...new Set(data.pendingRequesterIds)].map((recipientId) => ({
      recipientId,
      kind: 'request-status',
      message: closedNotice(data.title, data.reason),
      link: NOTICE_LINKS.postsIRequested,
    }))
  }
  const notice = noticeOf(event)
  return notice ? [notice] : []
}

const decided = (status: string) => (status === 'accepted' ? 'accepted' : 'declined')

/**
 * The notices of the three kinds the preferences switch, as short sentences read at a glance, with names and the post
 * title. Pure: the event carries everything (names, title), so no lookup is needed. Answers
 * null for events that tell nobody (a decision taken back to pending, a favorite of a person).
 * A message.sent's notice is what the recipient is told when away; whether they are is
 * decided before (conversations/message-notices.ts), never here.
 */
export function noticeOf(event: DomainEvent): Notice | null {
  switch (event.type) {
    case 'job-request.created': {
      const { data } = event as DomainEvent<'job-request.created'>
      return {
        recipientId: data.ownerId,
        kind: 'post-request',
        message: data.offer
          ? `${data.requesterName} sent a request for your post "${data.postTitle}" with an offer of ${formatOfferAmount(data.offer)}`
          : `${data.requesterName} sent a request for your post "${data.postTitle}"`,
        link: NOTICE_LINKS.requestsOnMyPosts,
      }
    }
    // Offers (docs/post-requests.md): each step tells the other side, under the same
    // preferences as the request it belongs to.
    case 'job-request.countered': {
      const { data } = event as DomainEvent<'job-request.countered'>
      return {
        recipientId: data.requesterId,
        kind: 'request-status',
        message: `The owner of "${data.postTitle}" made a counter-offer: ${formatOfferAmount(data.counter)}`,
        link: NOTICE_LINKS.postsIRequested,
      }
    }
    case 'job-request.counter-answered': {
      const { data } = event as DomainEvent<'job-request.counter-answered'>
      return {
        recipientId: data.ownerId,
        kind: 'post-request',
        message: `${data.requesterName} ${data.answer} your counter-offer of ${formatOfferAmount(data.counter)} for "${data.postTitle}"`,
        link: NOTICE_LINKS.requestsOnMyPosts,
      }
    }
    case 'job-request.decided': {
      const { data } = event as DomainEvent<'job-request.decided'>
      if (data.status === 'pending') return null
      return {
        recipientId: data.requesterId,
        kind: 'request-status',
        message:
          data.status === 'accepted' && data.agreed
            ? `Your request for "${data.postTitle}" was accepted. Agreed amount: ${formatOfferAmount(data.agreed)}`
            : `Your request for "${data.postTitle}" was ${decided(data.status)}`,
        link: NOTICE_LINKS.postsIRequested,
      }
    }
    case 'people-request.created': {
      const { data } = event as DomainEvent<'people-request.created'>
      return {
        recipientId: data.workerId,
        kind: 'post-request',
        message: `${data.ownerName} is requesting you for "${data.postTitle}"`,
        link: NOTICE_LINKS.peopleRequestedMe,
      }
    }
    case 'people-request.decided': {
      const { data } = event as DomainEvent<'people-request.decided'>
      if (data.status === 'pending') return null
      return {
        recipientId: data.ownerId,
        kind: 'request-status',
        message: `${data.workerName} ${decided(data.status)} your request for "${data.postTitle}"`,
        link: NOTICE_LINKS.peopleIRequested,
      }
    }
    case 'favorite.added': {
      const { data } = event as DomainEvent<'favorite.added'>
      if (data.targetType !== 'post') return null
      return {
        recipientId: data.targetOwnerId,
        kind: 'post-favorite',
        message: `${data.userName} saved your post "${data.targetTitle}" to their favorites`,
        link: NOTICE_LINKS.myPosts,
      }
    }
    case 'message.sent': {
      const { data } = event as DomainEvent<'message.sent'>
      return {
        recipientId: data.recipientId,
        kind: 'new-message',
        message: newMessageNotice(data.senderName),
        link: conversationLink(data.conversationId),
      }
    }
    case 'message.taken-down': {
      const { data } = event as DomainEvent<'message.taken-down'>
      return {
        recipientId: data.senderId,
        kind: 'message-taken-down',
        message: takenDownNotice(data.postTitle),
        link: conversationLink(data.conversationId),
      }
    }
    case 'post.expiring': {
      const { data } = event as DomainEvent<'post.expiring'>
      return {
        recipientId: data.ownerId,
        kind: 'post-expiring',
        message: expiringNotice(data.title, data.expirationDate),
        link: relistLink(NOTICE_LINKS.myPosts, data.postId),
      }
    }
    default:
      return null
  }
}
