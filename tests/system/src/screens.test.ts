import { spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { waitFor } from '@marketplace/service-kit/testing'
import { siteClient } from './processes'
import { startFullStack, type FullStack } from './web/full-stack'
import { ONE_PIXEL_PNG } from './web/journey-helpers'

// The screenshots of every route (scripts/screens.mjs), made against the test
// stack so the script never rots. It writes into a temporary folder: the committed
// docs/screens/ are made by hand against start.sh's demo data (docs/web-app.md).

const repoRoot = join(__dirname, '..', '..', '..')
const script = join(repoRoot, 'scripts', 'screens.mjs')
const committedScreens = join(repoRoot, 'docs', 'screens')

const WIDTHS = [1280, 375]
const STATES = ['signed-out', 'signed-in']

interface Shot {
  pattern: string
  path: string
  width: number
  state: string
  as: 'guest' | 'user' | 'admin'
  file: string
  finalPath: string
  redirectedTo: string | null
  settled: boolean
  heading: string
  sideways: number
  errorScreen: boolean
  appMissing: boolean
  notFound: boolean
}

/** Every route of the app as paths.ts lists it (its string values; the builders are skipped). */
async function appRoutes(): Promise<string[]> {
  // Read at run time (the path is not a module specifier tsc follows: paths.ts is outside
  // this package's sources), so the list is the app's own, not a copy the test keeps.
  const pathsModule = join(repoRoot, 'apps', 'web', 'src', 'config', 'paths.ts')
  const { paths } = (await import(pathsModule)) as { paths: unknown }
  const found: string[] = []
  const walk = (value: unknown) => {
    if (typeof value === 'string' && value.startsWith('/')) found.push(value)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(paths)
  return found
}

/** The settings area (messages included) needs a signed-in user. */
const needsSignIn = (pattern: string) =>
  pattern.startsWith('/settings-') || pattern.startsWith('/messages')

/**
 * Where the app itself sends a visit (every other route shows its own page): a visitor at a
 * page behind the sign-in goes to /login, /verify without the email of a
 * sign-up goes to /signup, and a request's conversation address replaces itself with the
 * thread's.
 */
function expectedLanding(pattern: string, state: string): string {
  if (pattern === '/verify') return '/signup'
  if (state === 'signed-out' && needsSignIn(pattern)) return '/login'
  if (pattern === '/messages/request/:requestId') return '/messages/:conversationId'
  return pattern
}

/** Runs the script as a person does, from the command line; answers its exit code and output. */
function runScript(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => resolve({ code, output }))
  })
}

/** Names and modification times of everything under a folder (empty when it is absent). */
function snapshotOf(folder: string): string[] {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((entry) => `${entry} ${statSync(join(folder, entry)).mtimeMs}`)
    .sort()
}

describe('screenshots of every route (scripts/screens.mjs) against the full stack', () => {
  let stack: FullStack
  let out: string
  let user: { userId: string; email: string; password: string; token: string }
  let conversationId: string
  let requestId: string

  beforeAll(async () => {
    stack = await startFullStack('screens')
    out = await mkdtemp(join(tmpdir(), 'screens-'))
    const api = siteClient(stack.site)
    // The pages need something in them: a post with a picture from an owner, and the user a
    // worker who requested it, so the requests, the conversation and the feed are not empty.
    const owner = await api.member('Olivia', 'Owner')
    user = await api.member('Wes', 'Worker')
    const slot = await api.call('POST', '/api/upload', owner.token, {
      fileName: 'garden.png',
      fileType: 'image/png',
      fileSize: ONE_PIXEL_PNG.length,
    })
    if (slot.status !== 200 && slot.status !== 201) throw new Error(`upload slot: ${slot.status}`)
    const put = await fetch(slot.body.presignedUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: ONE_PIXEL_PNG,
    })
    if (!put.ok) throw new Error(`picture upload: ${put.status}`)
    const post = await api.call('POST', '/api/jobs', owner.token, {
      title: 'Screens garden help',
      where: 'Austin TX',
      displayLocation: true,
      jobPicture: slot.body.objectKey,
    })
    if (post.status !== 201) throw new Error(`post: ${post.status} ${post.body?.message}`)
    const profile = await api.call('PUT', `/api/users/${user.userId}/worker-profile`, user.token, {
      title: 'Gardener',
      skills: ['Gardening', 'Painting'],
      availability: 'Weekends',
      paymentType: 'Cash',
      location: 'Denver CO',
      contacts: [{ value: 'wes@example.test', visibility: 'public' }],
    })
    if (profile.status !== 200) throw new Error(`worker profile: ${profile.status}`)
    // Jobs learns that the user is a worker from the people service's event, a moment later.
    await waitFor(
      async () => {
        const sent = await api.call('POST', '/api/jobs/requests', user.token, {
          postID: post.body._id,
        })
        if (sent.status === 403) return undefined
        if (sent.status !== 201) throw new Error(`request: ${sent.status} ${sent.body?.message}`)
        return sent
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'the request of the worker' },
    )
    const conversation = await waitFor(
      async () => (await api.call('GET', '/api/conversations', user.token)).body?.items?.[0],
      { timeoutMs: 60_000, what: "the request's conversation" },
    )
    conversationId = conversation._id
    requestId = conversation.requestId
    const message = await api.call(
      'POST',
      `/api/conversations/${conversationId}/messages`,
      user.token,
      { text: 'Hi! I can come on Saturday morning.' },
    )
    if (message.status !== 201) throw new Error(`message: ${message.status}`)
  }, 240_000)

  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true })
    await stack?.stop()
  }, 60_000)

  it('writes both widths, signed out and signed in, of every route in paths.ts, each a real picture of the page it names', async () => {
    const committedBefore = snapshotOf(committedScreens)
    const run = await runScript([
      '--base',
      stack.site,
      '--out',
      out,
      '--user-email',
      user.email,
      '--user-password',
      user.password,
      '--admin-email',
      stack.admin.email,
      '--admin-password',
      stack.admin.password,
    ])
    if (run.code !== 0) throw new Error(`screens.mjs exited ${run.code}:\n${run.output}`)
    const routes = await appRoutes()
    const total = routes.length * WIDTHS.length * STATES.length
    expect(run.output).toContain(`[screens] ${total}/${total} `)

    const shots = JSON.parse(await readFile(join(out, 'screens.json'), 'utf8')) as Shot[]
    const shotOf = (pattern: string, width: number, state: string) =>
      shots.filter((s) => s.pattern === pattern && s.width === width && s.state === state)
    const missing = routes.flatMap((pattern) =>
      WIDTHS.flatMap((width) =>
        STATES.filter((state) => shotOf(pattern, width, state).length !== 1).map(
          (state) => `${width} ${state} ${pattern}`,
        ),
      ),
    )
    expect(missing).toEqual([])
    expect(shots).toHaveLength(total)

    // The routes with parameters were shown with the user's real conversation (its id is
    // encoded in the address as the app's own links do: paths.messages.thread).
    const threadPath = `/messages/${encodeURIComponent(conversationId)}`
    for (const width of WIDTHS) {
      const thread = shotOf('/messages/:conversationId', width, 'signed-in')[0]!
      expect(thread).toMatchObject({ path: threadPath, finalPath: threadPath })
      const byRequest = shotOf('/messages/request/:requestId', width, 'signed-in')[0]!
      expect(byRequest.path).toBe(`/messages/request/${encodeURIComponent(requestId)}`)
      // It replaces itself with the thread's address once the conversation is found.
      expect(byRequest.finalPath).toBe(threadPath)
    }

    const wrong = shots.flatMap((shot) => {
      const where = `${shot.width} ${shot.state} ${shot.path} (at ${shot.finalPath}, "${shot.heading}")`
      const problems: string[] = []
      if (shot.errorScreen) problems.push(`${where}: the error screen`)
      if (shot.notFound) problems.push(`${where}: a 404`)
      if (shot.appMissing) problems.push(`${where}: not the app`)
      if (!shot.settled) problems.push(`${where}: never settled (skeleton or "Loading...")`)
      if (shot.sideways > 0) {
        problems.push(`${where}: scrolls ${shot.sideways} px sideways, wider than the screen`)
      }
      if ((shot.state === 'signed-out') !== (shot.as === 'guest')) {
        problems.push(`${where}: taken as ${shot.as}`)
      }
      const landing = expectedLanding(shot.pattern, shot.state)
      if (landing === shot.pattern) {
        if (shot.finalPath !== shot.path || shot.redirectedTo !== null) {
          problems.push(`${where}: should show its own page`)
        }
      } else {
        if (shot.redirectedTo !== landing) {
          problems.push(`${where}: should land on ${landing}, not ${shot.redirectedTo}`)
        }
        // Its name says what it shows (a reviewer browsing the folder sees a login page).
        if (!shot.file.includes('-redirected-to-')) {
          problems.push(`${where}: the name ${shot.file} hides that it shows ${landing}`)
        }
      }
      return problems
    })
    expect(wrong).toEqual([])
    // Moderation is for administrators: the user gets /unauthorized, so it is shown as the admin.
    for (const width of WIDTHS) {
      const moderation = shotOf('/settings-moderation', width, 'signed-in')[0]!
      expect(moderation).toMatchObject({ as: 'admin', finalPath: '/settings-moderation' })
      expect(shotOf('/settings-account', width, 'signed-in')[0]!.as).toBe('user')
    }

    // Each file is a PNG of the screen's width, a screen tall (or more at 1280), and not blank.
    for (const shot of shots) {
      const file = join(out, shot.file)
      expect(shot.file.startsWith(`${shot.width}/${shot.state}-`)).toBe(true)
      const image = sharp(await readFile(file))
      const { format, width, height } = await image.metadata()
      expect({ file: shot.file, format, width }).toEqual({
        file: shot.file,
        format: 'png',
        width: shot.width,
      })
      if (shot.width === 1280) expect(height).toBeGreaterThanOrEqual(800)
      else expect(height).toBe(812)
      const { channels } = await image.stats()
      expect({ file: shot.file, varied: channels.some((c) => c.stdev > 0) }).toEqual({
        file: shot.file,
        varied: true,
      })
    }

    // The README links every screenshot, route by route.
    const readme = await readFile(join(out, 'README.md'), 'utf8')
    for (const shot of shots) expect(readme).toContain(`](${shot.file})`)
    for (const pattern of routes) {
      const row = new RegExp(`^\\| \`${pattern.replace(/[^\w/:-]/g, '\\$&')}\` +\\|`, 'm')
      expect({ pattern, listed: row.test(readme) }).toEqual({ pattern, listed: true })
    }

    // The committed screenshots were left alone.
    expect(snapshotOf(committedScreens)).toEqual(committedBefore)
  }, 900_000)
})
