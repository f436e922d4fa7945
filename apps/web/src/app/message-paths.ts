/**
 * The messages area's routes (issue 17): the list, a thread, and a request's conversation
 * (resolved through GET /api/conversations/by-request/:requestId). Beside config/paths.ts
 * rather than in it only because this change's owner does not own that file; they belong
 * there with the others.
 */
export const messagePaths = {
  list: '/messages',
  threadPattern: '/messages/:conversationId',
  byRequestPattern: '/messages/request/:requestId',
  thread: (conversationId: string) => `/messages/${encodeURIComponent(conversationId)}`,
  byRequest: (requestId: string) => `/messages/request/${encodeURIComponent(requestId)}`,
} as const
