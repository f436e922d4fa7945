import { MongoServerError, type Db } from 'mongodb'
import type { DomainEvent } from '@marketplace/contracts/events'
import {
  OUTBOX_PENDING_INDEX,
  insertWithEvents,
  type IndexDefinition,
  type OutboxTarget,
} from '@marketplace/service-kit'
import { NOTIFICATIONS_COLLECTION, type NotificationDocument } from './notification-document'

/** Indexes, equality then sort (docs/notifications.md lists the query each serves). */
export const notificationIndexes: IndexDefinition[] = [
  // The dropdown's pages: userId = ?, newest first.
  {
    collection: NOTIFICATIONS_COLLECTION,
    keys: { userId: 1, createdAt: -1 },
    options: { name: 'user_recent' },
  },
  // The unread count and "clear read": userId = ?, isRead = ?.
  {
    collection: NOTIFICATIONS_COLLECTION,
    keys: { userId: 1, isRead: 1 },
    options: { name: 'user_read_state' },
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

  return {
    /** Stores the notification with its event; false when it was already stored. */
    async insert(notification: NotificationDocument, events: DomainEvent[]): Promise<boolean> {
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
      const [items, total] = await Promise.all([
        notifications
          .find({ userId }, withoutOutbox)
          .sort({ createdAt: -1, _id: -1 })
          .skip((page - 1) * limit)
          .limit(limit)
          .toArray(),
        notifications.countDocuments({ userId }),
      ])
      return { items, total }
    },

    unreadCount: (userId: string) => notifications.countDocuments({ userId, isRead: false }),

    /** Marks one of the user's notifications read; false when the user has no such one. */
    async markRead(id: string, userId: string): Promise<boolean> {
      const { matchedCount } = await notifications.updateOne(
        { _id: id, userId },
        { $set: { isRead: true, status: 'read' } },
      )
      return matchedCount === 1
    },

    markAllRead: async (userId: string) => {
      await notifications.updateMany(
        { userId, isRead: false },
        { $set: { isRead: true, status: 'read' } },
      )
    },

    clearRead: async (userId: string) => {
      const { deletedCount } = await notifications.deleteMany({ userId, isRead: true })
      return deletedCount
    },

    deleteOfUser: async (userId: string) => {
      await notifications.deleteMany({ userId })
    },
  }
}

export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>
