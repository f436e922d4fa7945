import { requestCollectionIndexes, type RequestCollection } from './request-collection'
import type { RequestDocument } from './request-document'

interface PostRequest extends RequestDocument {
  postId: string
  ownerId: string
  requesterId: string
}

describe('request collection indexes', () => {
  it('are the unique fields, each side newest first and the outbox flag', () => {
    const requests: RequestCollection<PostRequest> = {
      name: 'job_requests',
      tombstones: 'job_request_tombstones',
      parties: { sender: 'requesterId', receiver: 'ownerId' },
      unique: { fields: ['postId', 'requesterId'], index: 'one_request_per_post' },
    }
    expect(requestCollectionIndexes(requests)).toEqual([
      {
        collection: 'job_requests',
        keys: { postId: 1, requesterId: 1 },
        options: { name: 'one_request_per_post', unique: true },
      },
      {
        collection: 'job_requests',
        keys: { requesterId: 1, createdAt: -1 },
        options: { name: 'sent_recent' },
      },
      {
        collection: 'job_requests',
        keys: { ownerId: 1, createdAt: -1 },
        options: { name: 'received_recent' },
      },
      {
        collection: 'job_requests',
        keys: { outboxPending: 1 },
        options: { name: 'outbox_pending' },
      },
    ])
  })
})
