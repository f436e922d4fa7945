import { MongoServerError, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  createUserLists,
  insertWithEvents,
  type IndexDefinition,
  type OutboxTarget,
} from '@marketplace/service-kit'
import { NOTIFICATIONS_COLLECTION, type NotificationDocument } from './notification-document'

/**
 * Each user's notifications, one document per user addressed by `_id` (service-kit
 * lists/user-lists.ts, issue 19 §2): the pages, the unread count and "mark all read" read it
 * and each notification by `_id`, never a query over every user's notifications.
 */
export const NOTIFICATION_LISTS_COLLECTION = 'notification_lists'
const LIST = 'all'

/** Indexes (docs/notifications.md lists the query each serves). */
export const notificationIndexes: IndexDefinition[] = [
  // The one-time fill of a user's list from notifications stored before the lists, and the
  // purge of a user: userId = ?.
  {
    collection: NOTIFICATIONS_COLLECTION,
    keys: { userId: 1, createdAt: -1 },
    options: { name: 'user_recent' },
  },
  {
    collection: NOTIFICATIONS_COLLECTION,
    keys: OUTBOX_PENDING_INDEX.keys,
    options: { name: OUTBOX_PENDING_INDEX.name },
  },
]

export function createNotificationsRepository(
  db: Db,
  hooks: { notifyOutbox(target: OutboxTarget): void },
) {
  const notifications = db.collection<NotificationDocument>(NOTIFICATIONS_COLLECTION)
  const withoutOutbox = { projection: { outbox: 0, outboxPending: 0 } }
  const lists = createUserLists(db, NOTIFICATION_LISTS_COLLECTION)
  const isUnread = (notification: NotificationDocument) => !notification.isRead

  /** Every notification of the user, newest first: the list, then each by `_id`. */
  async function allOf(userId: string): Promise<NotificationDocument[]> {
    const ids = await lists.ids(userId, LIST, async () =>
      (await notifications.find({ userId }, { projection: { _id: 1 } }).toArray()).map(
        ({ _id }) => _id,
      ),
    )
    const found = await Promise.all(ids.map((_id) => notifications.findOne({ _id }, withoutOutbox)))
    // Skipped: an id whose notification is gone or not inserted yet (user-lists.ts says why).
    return found
      .filter((doc): doc is NotificationDocument => doc !== null && doc.userId === userId)
      .sort(
        (a, b) =>
          b.createdAt.getTime() - a.createdAt.getTime() ||
          (a._id < b._id ? 1 : a._id > b._id ? -1 : 0),
      )
  }

  return {
    /** Stores the notification with its event; false when it was already stored. */
    async insert(notification: NotificationDocument, events: DomainEvent[]): Promise<boolean> {
      // Listed first (a crash before the insert leaves an id the list skips). A redelivered
      // event names the same id, already listed: nothing to take back when the insert refuses.
      await lists.add(notification.userId, LIST, notification._id)
      try {
        await notifications.insertOne(insertWithEvents(notification, events))
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) return false
        throw error
      }
      hooks.notifyOutbox({
        collection: NOTIFICATIONS_COLLECTION,
        id: notification._id,
        outbox: events,
      })
      return true
    },

    findById: (id: string) => notifications.findOne({ _id: id }, withoutOutbox),

    /**
     * Marks the notification pushed, unless it already was (or is gone): true for the one
     * caller that may push it. A redelivered notification.created finds it claimed.
     */
    async claimPush(id: string): Promise<boolean> {
      const result = await notifications.updateOne(
        { _id: id, pushedAt: { $exists: false } },
        { $set: { pushedAt: new Date() } },
      )
      return result.modifiedCount === 1
    },

    async page(userId: string, page: number, limit: number) {
      const mine = await allOf(userId)
      return { items: mine.slice((page - 1) * limit, page * limit), total: mine.length }
    },

    unreadCount: async (userId: string) => (await allOf(userId)).filter(isUnread).length,

    /** Marks one of the user's notifications read; false when the user has no such one. */
    async markRead(id: string, userId: string): Promise<boolean> {
      const { matchedCount } = await notifications.updateOne(
        { _id: id, userId },
        { $set: { isRead: true, status: 'read' } },
      )
      return matchedCount === 1
    },

    markAllRead: async (userId: string) => {
      const unread = (await allOf(userId)).filter(isUnread)
      await Promise.all(
        unread.map(({ _id }) =>
          notifications.updateOne({ _id, userId }, { $set: { isRead: true, status: 'read' } }),
        ),
      )
    },

    clearRead: async (userId: string) => {
      const read = (await allOf(userId)).filter((notification) => !isUnread(notification))
      let deleted = 0
      for (const { _id } of read) {
        // By `_id`, and only the user's own.
        deleted += (await notifications.deleteOne({ _id, userId, isRead: true })).deletedCount
      }
      // Left after the deletes: a crash in between leaves ids the list skips.
      await lists.remove(
        userId,
        LIST,
        read.map(({ _id }) => _id),
      )
      return deleted
    },

    deleteOfUser: async (userId: string) => {
      await notifications.deleteMany({ userId })
      await lists.forget(userId, [LIST])
    },
  }
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>
