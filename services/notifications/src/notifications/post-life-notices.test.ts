import { Topics } from '@marketplace/contracts/events'
import { newEvent } from '@marketplace/service-kit'
import { infraEnv, publishEvent, waitFor } from '@marketplace/service-kit/testing'
import { ObjectId } from 'mongodb'
import {
  APP_URL,
  EVENT_WAIT_MS,
  startNotificationsTestApp,
  type NotificationsTestApp,
} from '../test/notifications-test-app'

interface MailSummary {
  ID: string
  Subject: string
}

async function mailsTo(address: string): Promise<MailSummary[]> {
  const query = encodeURIComponent(`to:${address}`)
  const answer = await fetch(`${infraEnv().mailApiUrl}/api/v1/search?query=${query}`)
  return ((await answer.json()) as { messages: MailSummary[] }).messages
}

/**
 * The notices of a post's life (docs/notifications.md): the owner's expiry warning with its
 * relist link, and each requester still waiting told once when the post is filled or expires.
 */
describe('notifications service: expiry warnings and closed posts (real FerretDB, Kafka, SMTP)', () => {
  let app: NotificationsTestApp

  beforeAll(async () => {
    app = await startNotificationsTestApp('notifications_post_life')
    await app.caughtUp()
  }, 600_000)
  afterAll(async () => {
    await app?.stop()
  })

  it('warns the owner with a relist link, and mails it, once per event', async () => {
    const owner = await app.registerUser('Olive')
    const postId = new ObjectId().toHexString()
    const warning = newEvent('post.expiring', {
      aggregateId: postId,
      actorId: null,
      data: { postId, ownerId: owner.userId, title: 'Paint a porch', expirationDate: '2026-12-02' },
    })
    await publishEvent(Topics.jobsPosts, warning)
    await publishEvent(Topics.jobsPosts, warning)
    await app.waitForStored(owner.userId, 1)
    const [stored] = await app.storedFor(owner.userId)
    expect([stored!.kind, stored!.message, stored!.link]).toEqual([
      'post-expiring',
      'Your post "Paint a porch" expires after Dec 2, 2026. Relist it for 30 days?',
      `/settings-employer-jobs?relist=${postId}`,
    ])
    const [mail] = await waitFor(
      async () => {
        const found = await mailsTo(owner.email)
        return found.length > 0 && found
      },
      { timeoutMs: EVENT_WAIT_MS, what: `the warning mailed to ${owner.email}` },
    )
    expect(mail!.Subject).toBe(stored!.message)
    const full = (await (
      await fetch(`${infraEnv().mailApiUrl}/api/v1/message/${mail!.ID}`)
    ).json()) as { Text: string }
    expect(full.Text).toContain(`${APP_URL}/settings-employer-jobs?relist=${postId}`)
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await app.storedFor(owner.userId)).toHaveLength(1)
  })

  it('tells each requester still waiting that the post was filled or expired, once', async () => {
    const ownerId = app.newUserId()
    const first = await app.registerUser('Pia')
    const second = await app.registerUser('Quentin')
    const closed = (reason: 'filled' | 'expired', title: string) => {
      const postId = new ObjectId().toHexString()
      return newEvent('post.closed', {
        aggregateId: postId,
        actorId: reason === 'filled' ? ownerId : null,
        data: {
          postId,
          ownerId,
          title,
          reason,
          pendingRequesterIds: [first.userId, second.userId],
        },
      })
    }
    const filled = closed('filled', 'Haul mulch')
    await publishEvent(Topics.jobsPosts, filled)
    await publishEvent(Topics.jobsPosts, filled)
    await publishEvent(Topics.jobsPosts, closed('expired', 'Fold laundry'))
    for (const requester of [first, second]) {
      await app.waitForStored(requester.userId, 2)
      const told = (await app.storedFor(requester.userId)).map((n) => [n.kind, n.message, n.link])
      expect(told).toEqual(
        expect.arrayContaining([
          [
            'request-status',
            'The post "Haul mulch" was filled, so your request was not taken up',
            '/settings-worker-job-requested',
          ],
          [
            'request-status',
            'The post "Fold laundry" expired before your request was answered',
            '/settings-worker-job-requested',
          ],
        ]),
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
    expect(await app.storedFor(first.userId)).toHaveLength(2)
    // The owner is not told of their own post's closing.
    expect(await app.storedFor(ownerId)).toHaveLength(0)
  })
})
