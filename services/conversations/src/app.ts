import { buildService } from '@marketplace/service-kit'
import type { ConversationsConfig } from './config'
import { CONVERSATIONS_COLLECTION } from './conversations/conversation-document'
import {
  conversationIndexes,
  createConversationsRepository,
} from './conversations/conversations-repository'
import { conversationsRoutes } from './conversations/conversations-routes'
import { createConversationsService } from './conversations/conversations-service'
import { conversationsSubscriptions } from './events/subscriptions'
import { createInboxRepository, inboxIndexes } from './inbox/inbox-repository'
import { moveOldInboxes } from './inbox/move-old-inboxes'
import { MESSAGE_BUCKETS_COLLECTION } from './messages/message-document'
import { createMessagesRepository, messageIndexes } from './messages/messages-repository'
import { messagesRoutes } from './messages/messages-routes'
import { createMessagesService } from './messages/messages-service'
import { createSendRateLimit } from './messages/send-rate-limit'
import { createSendWrite } from './messages/send-write'
import { createSystemLines } from './messages/system-lines'
import { MESSAGE_REPORTS_COLLECTION } from './reports/message-report-document'
import {
  createMessageReportsRepository,
  messageReportIndexes,
} from './reports/message-reports-repository'
import { messageReportsRoutes } from './reports/message-reports-routes'
import { createMessageReportsService } from './reports/message-reports-service'
import { createUserDirectory } from './users/user-directory'
import { createBlockSets } from '@marketplace/read-models/blocks'

/**
 * One private conversation per request (docs/conversations.md): opened by the
 * request events, closed by their end and by the accounts' deletion, messages in buckets,
 * each party's inbox with its unread counts, and reports of messages for the moderators.
 */
export function buildConversationsApp(config: ConversationsConfig) {
  return buildService(config, {
    database: {
      indexes: [
        ...conversationIndexes,
        ...inboxIndexes,
        ...messageIndexes,
        ...messageReportIndexes,
      ],
      outbox: [CONVERSATIONS_COLLECTION, MESSAGE_BUCKETS_COLLECTION, MESSAGE_REPORTS_COLLECTION],
    },
    tokenRevocations: true,
    async compose({ app, db, notifyOutbox, tokenRevocations }) {
      // An upgrade from the version that kept the inboxes in `inboxes` moves them here first
      // (inbox/move-old-inboxes.ts): awaited, so the service neither consumes nor listens
      // (nor reports ready) before every user's list and counts are where it reads them.
      const movedInboxes = await moveOldInboxes(db)
      if (movedInboxes > 0) app.log.info({ inboxes: movedInboxes }, 'old inboxes moved')
      const users = createUserDirectory(db)
      const inbox = createInboxRepository(db)
      const conversations = createConversationsRepository(db, { notifyOutbox })
      const messages = createMessagesRepository(db, { notifyOutbox })
      // Who blocked whom (people's user.blocked and user.unblocked, docs/blocking.md).
      const blocks = createBlockSets(db)
      const conversationsService = createConversationsService({
        conversations,
        inbox,
        users,
        hiddenFrom: blocks.hiddenFrom,
      })
      const messagesService = createMessagesService({
        messages,
        conversations,
        conversationsService,
        inbox,
        users,
        sendWrite: createSendWrite(
          db,
          createSendRateLimit(db, { perMinute: config.MESSAGES_PER_MINUTE }),
        ),
      })
      const reportsService = createMessageReportsService({
        reports: createMessageReportsRepository(db, { notifyOutbox }),
        messages,
        conversationsService,
        users,
      })
      return {
        subscriptions: [
          ...conversationsSubscriptions({
            conversations: conversationsService,
            messages: messagesService,
            reports: reportsService,
            users,
            tokenRevocations,
            systemLines: createSystemLines({ conversations, messages }),
          }),
          // A group of its own: the block pairs, kept in the database for every instance.
          { groupId: 'conversations-blocks', handlers: blocks.handlers },
        ],
        async routes(app) {
          await app.register(conversationsRoutes, { service: conversationsService })
          await app.register(messagesRoutes, { service: messagesService })
          await app.register(messageReportsRoutes, { service: reportsService })
        },
      }
    },
  })
}
