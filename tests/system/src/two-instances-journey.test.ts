import { randomBytes } from 'node:crypto'
import { MongoClient } from 'mongodb'
import type { Browser, WebSocket } from 'playwright-core'
import { waitFor } from '@marketplace/service-kit/testing'
import type { RunningService } from './processes'
import { siteClient } from './processes'
import { DESKTOP, launchChromium, newPage, screenshot } from './web/browser'
import { startFullStack, type FullStack } from './web/full-stack'
import {
  expectPath,
  expectVisible,
  logInThroughForm,
  openMakeAPost,
  photoJpeg,
  step,
} from './web/journey-helpers'

// Issue 19 §3: two of everything. Every service runs twice behind the gateway (as
// `REPLICAS=2 start.sh` runs them) and a person goes through the product in Chromium: logs in,
// then one instance of every service is killed (SIGKILL, no goodbye), and the person goes
// on: posts with a picture, is told live of a request, and nothing they did is lost.

const width = 'desktop' as const

/** SIGKILL, as a crash or an OOM kill: no shutdown hook runs. */
async function kill(service: RunningService): Promise<void> {
  const exited = new Promise<void>((resolve) => service.process.once('exit', () => resolve()))
  service.process.kill('SIGKILL')
  await exited
}

describe('two instances of every service, one of each killed during a journey, in Chromium', () => {
  let stack: FullStack
  let browser: Browser
  let api: ReturnType<typeof siteClient>

  /** Which notifications instance (0 or 1) holds a socket of `userId`, from its presence. */
  async function liveInstanceOf(userId: string): Promise<number> {
    const mongo = await new MongoClient(stack.databases.notifications).connect()
    try {
      return await waitFor(
        async () => {
          const presence = await mongo
            .db()
            .collection<{ _id: string; instances?: Record<string, Date> }>('presence')
            .findOne({ _id: userId })
          const ids = Object.keys(presence?.instances ?? {})
          const pids = (
            await mongo
              .db()
              .collection<{ _id: string; pid: number }>('live_instances')
              .find({ _id: { $in: ids } })
              .toArray()
          ).map((live) => live.pid)
          // A killed instance's entry stays until its heartbeat is stale: only running ones count.
          const holders = stack.instances.notifications
            .map((instance, index) => ({ instance, index }))
            .filter(
              ({ instance }) =>
                instance.process.exitCode === null &&
                instance.process.signalCode === null &&
                pids.includes(instance.process.pid ?? -1),
            )
          return holders.length === 1 ? holders[0]!.index : undefined
        },
        { timeoutMs: 30_000, what: `the notifications instance holding ${userId}'s socket` },
      )
    } finally {
      await mongo.close()
    }
  }

  beforeAll(async () => {
    const started = Date.now()
    stack = await startFullStack('replicas', { replicas: 2 })
    console.log(`two-instance stack (19 processes) up in ${Date.now() - started} ms`)
    browser = await launchChromium()
    api = siteClient(stack.site)
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    await stack?.stop()
  }, 60_000)

  it('posts with a picture, gets a live notification and loses nothing while an instance of each service dies', async () => {
    const suffix = randomBytes(3).toString('hex')
    const title = `Paint a shed ${suffix}`
    const owner = await api.member('Rita', 'Replica')
    const worker = await api.member('Wes', 'Worker')
    const profile = await api.call(
      'PUT',
      `/api/users/${worker.userId}/worker-profile`,
      worker.token,
      {
        title: 'Painter',
        skills: ['Painting'],
        availability: 'Weekends',
        paymentType: 'Cash',
        location: 'Denver CO',
        contacts: [{ value: 'wes@example.test', visibility: 'public' }],
      },
    )
    expect(profile.status).toBe(200)

    const { context, page } = await newPage(browser, DESKTOP)
    // The page's WebSockets (Socket.IO), to see its live connection move to the other instance.
    const sockets: WebSocket[] = []
    page.on('websocket', (socket) => {
      if (socket.url().includes('/socket.io/')) sockets.push(socket)
    })
    try {
      await step(page, width, 'replicas-login', async () => {
        await page.goto(`${stack.site}/login`)
        await logInThroughForm(page, owner.email, owner.password)
        await expectPath(page, '/')
        await waitFor(async () => sockets.length > 0, {
          timeoutMs: 20_000,
          what: 'the live connection',
        })
        // A marker that survives only as long as the page is not reloaded.
        await page.evaluate(() => {
          ;(globalThis as unknown as { journeyMarker: boolean }).journeyMarker = true
        })
      })

      // One instance of every service goes: of notifications, the one holding the page's live
      // connection (its presence record names the process), of the others the first.
      const holder = await liveInstanceOf(owner.userId)
      const killed = Object.entries(stack.instances).map(([name, instances]) =>
        name === 'notifications' ? instances[holder]! : instances[0]!,
      )
      await Promise.all(killed.map(kill))
      console.log(`killed ${killed.map((service) => service.name).join(', ')}`)

      await step(page, width, 'replicas-live-connection-moves', async () => {
        // The app reconnects, through the gateway, to the other notifications instance.
        await waitFor(async () => sockets[0]!.isClosed(), {
          timeoutMs: 30_000,
          what: 'the live connection to the killed instance to close',
        })
        await waitFor(async () => sockets.length > 1 && !sockets.at(-1)!.isClosed(), {
          timeoutMs: 30_000,
          what: 'the live connection opened again on the other instance',
        })
        expect(await liveInstanceOf(owner.userId)).toBe(1 - holder)
      })

      const postId = await step(page, width, 'replicas-post-with-picture', async () => {
        const dialog = await openMakeAPost(page, width)
        await dialog.getByLabel(/^Title/).fill(title)
        await dialog.getByLabel(/^Where/).fill('Denver CO')
        await dialog.getByLabel('Contact', { exact: true }).selectOption('WhatsApp')
        await dialog.getByLabel(/^WhatsApp number/).fill('303-555-0178')
        await dialog.getByLabel(/^Picture/).setInputFiles({
          name: 'shed.jpg',
          mimeType: 'image/jpeg',
          buffer: await photoJpeg(),
        })
        await expectVisible(
          dialog.getByText('Picture Uploaded', { exact: true }),
          '"Picture Uploaded"',
          30_000,
        )
        await dialog.getByRole('button', { name: 'Add this post' }).click()
        await expectVisible(page.getByText('Post created successfully!'), 'the post created')
        await dialog.waitFor({ state: 'hidden', timeout: 10_000 })
        await screenshot(page, 'replicas-1-post-created')
        return waitFor(
          async () =>
            (
              (await api.call('GET', `/api/jobs?search=${encodeURIComponent(title)}&limit=10`)).body
                ?.jobs as Array<{ _id: string; title: string }> | undefined
            )?.find((job) => job.title === title)?._id,
          { timeoutMs: 60_000, what: `"${title}" in the feed` },
        )
      })

      await step(page, width, 'replicas-live-notification', async () => {
        const sent = await api.call('POST', '/api/jobs/requests', worker.token, { postID: postId })
        expect([200, 201]).toContain(sent.status)
        // Through the shared "notifications" group (its partitions move to the survivor once
        // the dead member's session ends) and notifications-2's live group, to the page.
        await expectVisible(
          page.getByRole('button', { name: 'Notifications, 1 unread' }),
          'the bell with 1 unread (live push over Socket.IO)',
          90_000,
        )
        expect(
          await page.evaluate(
            () => (globalThis as unknown as { journeyMarker?: boolean }).journeyMarker,
          ),
        ).toBe(true)
        await screenshot(page, 'replicas-2-bell-unread')
      })

      // Nothing lost: the post with its picture, the request and the notification, as stored.
      const { token } = await api.login(owner.email, owner.password)
      const post = await api.call('GET', `/api/jobs/${postId}`, token)
      expect(post.status).toBe(200)
      expect(post.body).toMatchObject({ title, contact: 'WhatsApp', contactValue: '3035550178' })
      expect(post.body.jobPicture).toMatch(new RegExp(`^jobImages/${owner.userId}/`))
      const notifications = await api.call('GET', '/api/notifications?limit=5', token)
      expect(notifications.status).toBe(200)
      expect(notifications.body.pagination.total).toBe(1)
      // And the card shows the uploaded picture, read back from object storage.
      await page.reload()
      const card = page.getByRole('article', { name: title })
      await expectVisible(card, `the card of "${title}" after a reload`)
      const img = card.locator('img').first()
      await img.scrollIntoViewIfNeeded()
      await waitFor(
        () =>
          img.evaluate((element) => {
            const image = element as unknown as { complete: boolean; naturalWidth: number }
            return image.complete && image.naturalWidth > 0
          }),
        { timeoutMs: 30_000, what: "the card's picture loaded" },
      )
    } finally {
      await context.close()
    }
  }, 300_000)
})
