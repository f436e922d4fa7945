#!/usr/bin/env node
// Demo data: a living marketplace created through the product's own HTTP API, never
// by writing to a database. 30 demo people, each with 7 posts (210 posts across categories,
// locations, payments and contacts; some private, some expiring, some offline, a third with
// a picture uploaded through a pre-signed URL). Idempotent: people who exist log in, posts
// whose title the owner already has are skipped. docs/demo-data.md.
//
//   node scripts/seed/seed-demo.mjs [--base http://127.0.0.1:8080] [--auth http://127.0.0.1:4001] [--mail http://127.0.0.1:8025]
import { parseArgs } from 'node:util'
import { DEMO_PASSWORD, DEMO_REPORTS, DEMO_USERS, COLOURS, contactValueOf, favoritesOf, postsOf, workerProfileOf } from './demo-data.mjs'
import { gradientPng } from './png.mjs'

const { values: args } = parseArgs({
  options: {
    base: { type: 'string', default: process.env.SEED_BASE_URL ?? 'http://127.0.0.1:8080' },
    // Sign-ups and logins go to auth directly, each demo person with an address of its own
    // (X-Forwarded-For, trusted from loopback only): the per-IP budgets that protect real
    // users would otherwise stop a seed of 30 accounts from one machine.
    auth: { type: 'string', default: process.env.SEED_AUTH_URL ?? 'http://127.0.0.1:4001' },
    mail: { type: 'string', default: process.env.MAIL_API_URL ?? 'http://127.0.0.1:8025' },
  },
})
const say = (message) => console.log(`[seed] ${message}`)

async function call(url, { method = 'GET', body, token, ip, headers = {} } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(ip ? { 'x-forwarded-for': ip } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if ((response.status === 429 || response.status === 503) && attempt < 6) {
      const wait = Math.min(Number(response.headers.get('retry-after') ?? 2), 30)
      await new Promise((resolve) => setTimeout(resolve, wait * 1000))
      continue
    }
    const text = await response.text()
    let json = null
    try {
      json = text ? JSON.parse(text) : null
    } catch {}
    return { status: response.status, body: json }
  }
}

/** The code of the newest mail to `email` sent at or after `since` (older mails are stale). */
async function verificationCode(email, since) {
  for (let i = 0; i < 40; i += 1) {
    const found = await call(`${args.mail}/api/v1/search?query=${encodeURIComponent(`to:${email}`)}`)
    const latest = found.body?.messages?.[0]
    if (latest && Date.parse(latest.Created) >= since - 1000) {
      const message = await call(`${args.mail}/api/v1/message/${latest.ID}`)
      const code = message.body?.Text?.match(/\b(\d{6})\b/)?.[1]
      if (code) return code
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`no verification mail reached ${email}`)
}

/** Logs the person in, signing up and verifying first when needed; answers the token. */
async function ensureUser(user, index) {
  const ip = `10.77.${Math.floor(index / 250)}.${(index % 250) + 1}`
  const login = () => call(`${args.auth}/api/auth/direct-login`, { method: 'POST', ip, body: { email: user.email, password: DEMO_PASSWORD } })
  let answer = await login()
  let created = false
  let codeSentAt = Date.now()
  if (answer.status === 404) {
    codeSentAt = Date.now()
    const signup = await call(`${args.auth}/api/auth/signup`, {
      method: 'POST',
      ip,
      body: { ...user, password: DEMO_PASSWORD, interest: 'Both', emailPreferences: false, termsAgreed: true },
    })
    if (signup.status !== 201) throw new Error(`sign-up of ${user.email}: ${signup.status} ${signup.body?.message}`)
    created = true
    answer = await login()
  }
  if (answer.status === 403 && answer.body?.code === 'EMAIL_NOT_VERIFIED') {
    if (!created) {
      // Left unverified by an interrupted run: its code may have expired; ask for a new one.
      codeSentAt = Date.now()
      await call(`${args.auth}/api/auth/resend-confirmation`, { method: 'POST', ip, body: { email: user.email } })
    }
    const confirm = await call(`${args.auth}/api/auth/confirm-signup`, {
      method: 'POST',
      ip,
      body: { email: user.email, code: await verificationCode(user.email, codeSentAt) },
    })
    if (confirm.status !== 200) throw new Error(`verification of ${user.email}: ${confirm.status} ${confirm.body?.message}`)
    answer = await login()
  }
  if (answer.status !== 200) throw new Error(`login of ${user.email}: ${answer.status} ${answer.body?.message}`)
  return { token: answer.body.accessToken, userId: answer.body.user._id, created }
}

let picturesWarned = false
async function uploadPicture(token, kind, { profile = false } = {}) {
  const [from, to] = COLOURS[kind] ?? COLOURS.Other
  const png = profile ? gradientPng(256, 256, to, from) : gradientPng(480, 300, from, to)
  const slot = await call(`${args.base}/api/upload${profile ? '/user-profile-picture' : ''}`, {
    method: 'POST',
    token,
    body: { fileName: `${kind.toLowerCase().replace(/\W+/g, '-')}.png`, fileType: 'image/png', fileSize: png.length },
  })
  if (slot.status !== 200 && slot.status !== 201) {
    if (!picturesWarned) say(`upload slots unavailable (${slot.status}): posts are created without pictures`)
    picturesWarned = true
    return null
  }
  const put = await fetch(slot.body.presignedUrl, {
    method: 'PUT',
    headers: { 'content-type': 'image/png', 'cache-control': 'public, max-age=31536000, immutable' },
    body: png,
  })
  if (!put.ok) {
    if (!picturesWarned) say(`picture upload refused by storage (${put.status}): posts are created without pictures`)
    picturesWarned = true
    return null
  }
  // As the web app does: the picture is checked and its sizes made before the key is saved
  // (without this call media would make them when the post takes the picture up).
  const done = await call(`${args.base}/api/upload/complete`, {
    method: 'POST',
    token,
    body: { objectKey: slot.body.objectKey },
  })
  if (done.status !== 200 && !picturesWarned) {
    say(`picture sizes not made yet (${done.status}): the pages show the original`)
    picturesWarned = true
  }
  return slot.body.objectKey
}

/** The worker profile, once: the people service makes the profile from user.registered. */
async function ensureWorkerProfile(token, userId, index, totals) {
  const planned = workerProfileOf(index)
  if (!planned) return
  let own
  // Up to 2 minutes: a people service that has just started may still be reading the
  // broker's history before it reaches this sign-up.
  for (let attempt = 0; attempt < 240; attempt += 1) {
    own = await call(`${args.base}/api/users/${userId}`, { token })
    if (own.status !== 404) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  if (own.status !== 200) throw new Error(`profile of ${DEMO_USERS[index].email}: ${own.status} ${own.body?.message}`)
  if (own.body.isWorker) {
    totals.workersPresent += 1
    return
  }
  const profilePicture = await uploadPicture(token, planned.kind, { profile: true })
  if (profilePicture) totals.pictures += 1
  const saved = await call(`${args.base}/api/users/${userId}/worker-profile`, {
    method: 'PUT',
    token,
    body: { ...planned.body, ...(profilePicture ? { profilePicture } : {}) },
  })
  if (saved.status !== 200) throw new Error(`worker profile of ${DEMO_USERS[index].email}: ${saved.status} ${saved.body?.message}`)
  if (planned.offline) {
    await call(`${args.base}/api/users/${userId}/worker-status`, { method: 'PATCH', token, body: { isOnline: false } })
  }
  totals.workersCreated += 1
}

/** Answers the person's posts, oldest first (as postsOf lists them). */
async function ownPosts(token) {
  const mine = await call(`${args.base}/api/jobs/my-jobs`, { token })
  if (mine.status !== 200) throw new Error(`my-jobs: ${mine.status} ${mine.body?.message}`)
  return Array.isArray(mine.body) ? mine.body : mine.body.jobs
}

/**
 * Sends `body` until favorites or reports know the target: their read models follow the jobs
 * and people events, a moment behind the writes above. Answers the last answer.
 */
async function whenKnown(url, token, body) {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await call(url, { method: 'POST', token, body })
    // 404: the post or person is not in the read model yet; NOT_A_WORKER: the person is, but
    // their worker profile (another topic) is not yet.
    const notYet = answer.status === 404 || answer.body?.code === 'NOT_A_WORKER'
    if (!notYet || attempt >= 60) return answer
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** Each person's favorites and the reports of DEMO_REPORTS; repeats change nothing. */
async function seedFavoritesAndReports(people, totals) {
  const postIdOf = (index, number) => {
    const title = postsOf(index)[number].body.title
    return people[index].posts.find((post) => post.title === title)?._id
  }
  for (const [index, person] of people.entries()) {
    const plan = favoritesOf(index)
    for (const number of plan.postNumbers) {
      const postId = postIdOf(plan.postsOf, number)
      const saved = await whenKnown(`${args.base}/api/favorites/posts`, person.token, { userId: person.userId, postId })
      if (saved.status === 503) return say('favorites service not running: no favorites or reports seeded')
      if (saved.status === 201) totals.favorites += 1
      else if (saved.status !== 200) throw new Error(`favorite post of ${DEMO_USERS[index].email}: ${saved.status} ${saved.body?.message}`)
    }
    const saved = await whenKnown(`${args.base}/api/favorites/people`, person.token, {
      userID: person.userId,
      personID: people[plan.worker].userId,
    })
    if (saved.status === 201) totals.favorites += 1
    else if (saved.status !== 200) throw new Error(`favorite person of ${DEMO_USERS[index].email}: ${saved.status} ${saved.body?.message}`)
  }
  for (const report of DEMO_REPORTS) {
    const reporter = people[report.by]
    const answer = report.post
      ? await whenKnown(`${args.base}/api/reports/posts`, reporter.token, {
          postId: postIdOf(report.post.of, report.post.number),
          type: report.type,
          description: report.description,
        })
      : await whenKnown(`${args.base}/api/reports/people`, reporter.token, {
          reportedId: people[report.worker].userId,
          type: report.type,
          description: report.description,
        })
    if (answer.status === 201) totals.reports += 1
    else if (answer.status !== 409) throw new Error(`report by ${DEMO_USERS[report.by].email}: ${answer.status} ${answer.body?.message}`)
  }
}

async function seedUser(user, index, totals) {
  const { token, userId, created } = await ensureUser(user, index)
  if (created) totals.usersCreated += 1
  await ensureWorkerProfile(token, userId, index, totals)
  const mine = await ownPosts(token)
  const existing = new Set(mine.map((post) => post.title))
  // Posts seeded before contact values get one for their method, as an owner would add it.
  for (const post of mine) {
    if (!post.contact || post.contactValue || !contactValueOf(index, post.contact)) continue
    const given = await call(`${args.base}/api/jobs/${post._id}`, { method: 'PUT', token, body: { contactValue: contactValueOf(index, post.contact) } })
    if (given.status !== 200) throw new Error(`contact value of "${post.title}": ${given.status} ${given.body?.message}`)
    totals.contactValuesAdded += 1
  }
  for (const post of postsOf(index)) {
    if (existing.has(post.title)) {
      totals.postsPresent += 1
      continue
    }
    const jobPicture = post.withPicture ? await uploadPicture(token, post.kind) : null
    if (jobPicture) totals.pictures += 1
    const made = await call(`${args.base}/api/jobs`, { method: 'POST', token, body: { ...post.body, jobPicture } })
    if (made.status !== 201) throw new Error(`post "${post.title}": ${made.status} ${made.body?.message}`)
    if (post.offline) await call(`${args.base}/api/jobs/${made.body._id}`, { method: 'PUT', token, body: { isOnline: false } })
    totals.postsCreated += 1
  }
  return { token, userId, posts: await ownPosts(token) }
}

async function main() {
  const health = await fetch(`${args.base}/readyz`).catch(() => null)
  if (!health) {
    console.error(`[seed] the gateway does not answer at ${args.base}: start the product first (bash scripts/start.sh)`)
    process.exit(1)
  }
  const started = Date.now()
  const totals = { usersCreated: 0, workersCreated: 0, workersPresent: 0, postsCreated: 0, postsPresent: 0, contactValuesAdded: 0, pictures: 0, favorites: 0, reports: 0 }
  const people = []
  let done = 0
  // Four people at a time: quick, and gentle with the local servers.
  const queue = DEMO_USERS.map((user, index) => [user, index])
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        people[next[1]] = await seedUser(next[0], next[1], totals)
        done += 1
        if (done % 5 === 0 || done === DEMO_USERS.length) {
          say(`${done}/${DEMO_USERS.length} people ready, ${totals.postsCreated + totals.postsPresent} posts present`)
        }
      }
    }),
  )
  say('saving favorites and filing the demo reports (once the read models know the posts)...')
  await seedFavoritesAndReports(people, totals)
  say(
    `done in ${((Date.now() - started) / 1000).toFixed(0)} s: ${DEMO_USERS.length} demo people (${totals.usersCreated} new), ` +
      `${totals.workersCreated} worker profiles created (${totals.workersPresent} already there), ` +
      `${totals.postsCreated} posts created, ${totals.postsPresent} already there (${totals.contactValuesAdded} given a contact value), ${totals.pictures} pictures, ` +
      `${totals.favorites} favorites and ${totals.reports} reports added. ` +
      `Sign in as ${DEMO_USERS[0].email} / ${DEMO_PASSWORD}.`,
  )
}

main().catch((error) => {
  console.error(`[seed] failed: ${error.message}`)
  process.exit(1)
})
