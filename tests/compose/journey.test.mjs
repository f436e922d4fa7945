// The product as operators run it (docker compose, the images built here), from nothing:
// up, a person signs up with the code Mailpit caught, posts with a picture, a second person
// requests it, the owner is told live over Socket.IO through the gateway and accepts, they
// write to each other; one service's container is killed and started again and the journey
// goes on with nothing acknowledged lost; the stack goes down and up again with its volumes
// (the warm start) and everything is still there; then `docker compose down -v`.
// Run by tests/compose/run.sh, which builds the images and sets the compose files, project
// name, secrets and ports in the environment.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import http from 'node:http'
import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { io } from 'socket.io-client'

const site = `http://127.0.0.1:${process.env.JOURNEY_GATEWAY_PORT}`
const mailApi = `http://127.0.0.1:${process.env.JOURNEY_MAIL_API_PORT}`
const PASSWORD = 'Cascade2026!'
// One transparent pixel: the post's picture.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)
const times = {}

function compose(...args) {
  return execFileSync('docker', ['compose', '--progress', 'quiet', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
}

/** `docker compose up` until every container is healthy (or its one-shot job done). */
function upAndTime(label) {
  const started = Date.now()
  try {
    compose('up', '--detach', '--wait', '--wait-timeout', '600')
  } catch (error) {
    // Say which container did not come up, and why, before failing.
    console.log(compose('ps', '--all', '--format', 'table {{.Name}}\t{{.Status}}'))
    console.log(compose('logs', '--no-color', '--tail', '15'))
    throw error
  }
  times[label] = (Date.now() - started) / 1000
  console.log(`[compose journey] ${label}: the whole stack up and healthy in ${times[label]} s`)
}

async function waitFor(probe, what, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs
  let last
  while (Date.now() < deadline) {
    try {
      const value = await probe()
      if (value) return value
    } catch (error) {
      last = error
    }
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last.message}` : ''}`)
}

async function call(method, path, token, body) {
  const response = await fetch(`${site}${path}`, {
    method,
    headers: {
      origin: site,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await response.text()
  let parsed = null
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    parsed = text
  }
  return { status: response.status, body: parsed }
}

/** The 6-digit code of the newest mail to `email`, from Mailpit's REST API. */
function mailedCode(email) {
  return waitFor(async () => {
    const search = await (await fetch(`${mailApi}/api/v1/search?query=to:${email}`)).json()
    const [mail] = search.messages
    if (!mail) return undefined
    const full = await (await fetch(`${mailApi}/api/v1/message/${mail.ID}`)).json()
    return full.Text.match(/\b(\d{6})\b/)?.[1]
  }, `the mail with a code to ${email}`)
}

async function login(email) {
  const answer = await call('POST', '/api/auth/direct-login', undefined, {
    email,
    password: PASSWORD,
  })
  assert.equal(answer.status, 200, `login of ${email}`)
  return { userId: answer.body.user._id, token: answer.body.accessToken }
}

async function signUp(firstname, lastname) {
  const email = `${firstname}-${randomBytes(4).toString('hex')}@example.test`.toLowerCase()
  const signup = await call('POST', '/api/auth/signup', undefined, {
    firstname,
    lastname,
    email,
    phoneNumber: '2125550100',
    password: PASSWORD,
    dateOfBirth: '1985-03-01',
    interest: 'Both',
    emailPreferences: false,
    termsAgreed: true,
  })
  assert.equal(signup.status, 201, `signup of ${email}: ${JSON.stringify(signup.body)}`)
  const code = await mailedCode(email)
  const confirmed = await call('POST', '/api/auth/confirm-signup', undefined, { email, code })
  assert.equal(confirmed.status, 200, `confirmation of ${email}`)
  const person = { email, ...(await login(email)) }
  await waitFor(
    async () => (await call('GET', `/api/users/${person.userId}`, person.token)).status === 200,
    `${firstname}'s profile in the people service`,
  )
  return person
}

/** A Socket.IO client through the gateway, authenticated as the web app does it. */
async function liveConnection(person) {
  const received = []
  const socket = io(site, { path: '/socket.io', auth: { token: person.token } })
  socket.on('notification', (message) => received.push(message.notification))
  const authenticated = new Promise((resolve) => socket.once('authenticated', resolve))
  socket.on('connect', () => socket.emit('authenticate', person.userId))
  assert.deepEqual(await authenticated, { success: true })
  return { socket, received }
}

async function messagesOf(conversationId, person) {
  const answer = await call('GET', `/api/conversations/${conversationId}/messages`, person.token)
  assert.equal(answer.status, 200)
  const items = answer.body.items ?? answer.body.messages ?? answer.body
  return items.map((message) => message.text)
}

describe('the compose stack, from nothing to down -v', () => {
  const sockets = []
  before(() => upAndTime('cold start (empty volumes)'))
  after(() => {
    for (const socket of sockets) socket.disconnect()
    if (process.env.JOURNEY_KEEP_STACK !== '1') compose('down', '--volumes', '--remove-orphans')
    console.log(
      `[compose journey] times: images ${process.env.JOURNEY_IMAGES_SECONDS ?? '?'} s, ` +
        Object.entries(times)
          .map(([label, seconds]) => `${label} ${seconds} s`)
          .join(', '),
    )
  })

  const state = {}

  it("each service's container mounts its own Kafka secret and no one else's", () => {
    const services = ['auth', 'people', 'jobs', 'favorites', 'reports', 'notifications']
    services.push('media', 'conversations', 'analytics', 'gateway')
    for (const service of services) {
      const container = compose('ps', '--quiet', service).trim()
      const mounts = JSON.parse(
        execFileSync('docker', ['inspect', '--format', '{{json .Mounts}}', container], {
          encoding: 'utf8',
        }),
      )
      const volumes = mounts.map((mount) => String(mount.Name).replace(/^.*?_/, ''))
      assert.ok(!volumes.includes('kafka-users'), `${service} mounts every Kafka password`)
      assert.deepEqual(
        volumes.filter((name) => name.startsWith('kafka-secret-')),
        [`kafka-secret-${service}`],
        `${service}'s Kafka secrets`,
      )
    }
  })

  it("holds MinIO's root credentials only in MinIO and the minio-users job; each service mounts its own storage keys", () => {
    const root = process.env.MINIO_ROOT_PASSWORD
    assert.ok(root && root.length >= 16, 'run.sh gives the stack a MinIO root password')
    const storageUsers = {
      people: 'minio-secret-people',
      jobs: 'minio-secret-jobs',
      media: 'minio-secret-media',
    }
    for (const container of compose('ps', '--all', '--quiet').trim().split('\n')) {
      const [labels, env, mounts] = JSON.parse(
        execFileSync(
          'docker',
          [
            'inspect',
            '--format',
            '[{{json .Config.Labels}},{{json .Config.Env}},{{json .Mounts}}]',
            container,
          ],
          { encoding: 'utf8' },
        ),
      )
      const service = labels['com.docker.compose.service']
      if (service === 'minio' || service === 'minio-users') continue
      assert.ok(
        !env.some((entry) => entry.includes(root)),
        `${service}'s environment holds MinIO's root password`,
      )
      const volumes = mounts.map((mount) => String(mount.Name).replace(/^.*?_/, ''))
      assert.deepEqual(
        volumes.filter((volume) => volume.startsWith('minio-secret-')),
        storageUsers[service] ? [storageUsers[service]] : [],
        `${service}'s MinIO keys`,
      )
    }
    // The processes too: the start command reads the keys into the environment of node.
    for (const service of Object.keys(storageUsers)) {
      const environ = execFileSync(
        'docker',
        ['exec', compose('ps', '--quiet', service).trim(), 'cat', '/proc/1/environ'],
        { encoding: 'utf8' },
      ).split('\0')
      assert.ok(!environ.some((entry) => entry.includes(root)), `${service}'s process holds it`)
      assert.ok(
        environ.includes(`S3_ACCESS_KEY=marketplace-${service}`),
        `${service} uses storage as its own user`,
      )
    }
  })

  it("a service's MinIO user may use its own bucket and nothing else", () => {
    // mc, in the MinIO image the stack runs, on the stack's network, with the keys of the
    // media and people users (their volumes) and, to prepare, the root account.
    const minio = compose('ps', '--quiet', 'minio').trim()
    const [image, networks] = JSON.parse(
      execFileSync(
        'docker',
        [
          'inspect',
          '--format',
          '[{{json .Config.Image}},{{json .NetworkSettings.Networks}}]',
          minio,
        ],
        { encoding: 'utf8' },
      ),
    )
    const project = process.env.COMPOSE_PROJECT_NAME
    const probe = `
      export MC_CONFIG_DIR=/tmp/mc-config
      mc alias set root http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD" >/dev/null
      mc alias set media http://minio:9000 "$(cat /keys/media/access-key)" "$(cat /keys/media/secret-key)" >/dev/null
      mc alias set people http://minio:9000 "$(cat /keys/people/access-key)" "$(cat /keys/people/secret-key)" >/dev/null
      mc mb --ignore-existing root/marketplace-read-models root/another-bucket >/dev/null
      echo private | mc pipe root/marketplace-read-models/probe.txt >/dev/null
      echo private | mc pipe root/another-bucket/probe.txt >/dev/null
      try() { label=$1; shift; if "$@" >/dev/null 2>&1; then echo "$label: allowed"; else echo "$label: denied"; fi; }
      try "media lists its bucket" mc ls media/marketplace-media
      try "media writes its bucket" sh -c 'echo x | mc pipe media/marketplace-media/probe-by-media.txt'
      try "media reads the read-models bucket" mc cat media/marketplace-read-models/probe.txt
      try "media reads another bucket" mc cat media/another-bucket/probe.txt
      try "media lists all buckets" sh -c 'mc ls media | grep -q another-bucket'
      try "media makes a bucket" mc mb media/made-by-media
      try "media lists MinIO's users" mc admin user list media
      try "people reads the read-models bucket" mc cat people/marketplace-read-models/probe.txt
      try "people reads the media bucket" mc cat people/marketplace-media/probe-by-media.txt
      mc rb --force root/another-bucket >/dev/null
      mc rm root/marketplace-read-models/probe.txt root/marketplace-media/probe-by-media.txt >/dev/null
    `
    const answers = execFileSync(
      'docker',
      [
        'run',
        '--rm',
        '--user',
        '0:0',
        '--entrypoint',
        '/bin/sh',
        '--network',
        Object.keys(networks)[0],
        '-e',
        'MINIO_ROOT_USER',
        '-e',
        'MINIO_ROOT_PASSWORD',
        '-v',
        `${project}_minio-secret-media:/keys/media:ro`,
        '-v',
        `${project}_minio-secret-people:/keys/people:ro`,
        image,
        '-c',
        probe,
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, MINIO_ROOT_USER: process.env.MINIO_ROOT_USER ?? 'marketplace' },
      },
    )
    assert.deepEqual(answers.trim().split('\n'), [
      'media lists its bucket: allowed',
      'media writes its bucket: allowed',
      'media reads the read-models bucket: denied',
      'media reads another bucket: denied',
      'media lists all buckets: denied',
      'media makes a bucket: denied',
      "media lists MinIO's users: denied",
      'people reads the read-models bucket: allowed',
      'people reads the media bucket: denied',
    ])
  })

  it('keeps /metrics off the public port: the gateway answers 404, through the socket route 400', async () => {
    assert.equal((await fetch(`${site}/metrics`)).status, 404)
    // fetch() would normalise %2e%2e to .. and send /metrics; the raw path is what an
    // attacker sends, so it goes out as written.
    const status = await new Promise((resolve, reject) => {
      const { hostname, port } = new URL(site)
      const path = '/socket.io/%2e%2e/metrics'
      const request = http.get({ hostname, port, path }, (response) => {
        response.resume()
        resolve(response.statusCode)
      })
      request.on('error', reject)
    })
    assert.equal(status, 400)
  })

  it('signs two people up with the mailed codes; the owner posts with a picture', async () => {
    state.owner = await signUp('Olive', 'Owner')
    state.worker = await signUp('Walt', 'Worker')
    const { owner, worker } = state
    const slot = await call('POST', '/api/upload', owner.token, {
      fileName: 'fence.png',
      fileType: 'image/png',
      fileSize: PNG.length,
    })
    assert.ok([200, 201].includes(slot.status), `upload slot: ${slot.status}`)
    // Straight to MinIO's published port, as the browser does.
    const put = await fetch(slot.body.presignedUrl, {
      method: 'PUT',
      headers: { 'content-type': 'image/png' },
      body: PNG,
    })
    assert.ok(put.ok, `picture upload: ${put.status}`)
    state.title = `Fix a fence ${randomBytes(3).toString('hex')}`
    const post = await call('POST', '/api/jobs', owner.token, {
      title: state.title,
      where: 'Denver CO',
      jobPicture: slot.body.objectKey,
    })
    assert.equal(post.status, 201, `post: ${JSON.stringify(post.body)}`)
    state.postId = post.body._id
    const shown = await call('GET', `/api/jobs/${state.postId}`, owner.token)
    const picture = JSON.stringify(shown.body).match(
      /https?:\/\/[^"]+fence[^"]*|[^"]*jobImages[^"]+/,
    )
    assert.ok(picture, 'the post names its picture')
    const profile = await call('PUT', `/api/users/${worker.userId}/worker-profile`, worker.token, {
      title: 'Handyman',
      skills: ['Fences'],
      availability: 'Weekends',
      paymentType: 'Cash',
      location: 'Denver CO',
      contacts: [{ value: 'walt@example.test', visibility: 'public' }],
    })
    assert.equal(profile.status, 200)
  })

  it('the worker requests the post; the owner is told live through the gateway and accepts', async () => {
    const { owner, worker } = state
    const live = await liveConnection(owner)
    sockets.push(live.socket)
    state.requestId = await waitFor(async () => {
      const sent = await call('POST', '/api/jobs/requests', worker.token, { postID: state.postId })
      return sent.status === 201 ? sent.body._id : undefined
    }, "the worker's profile known to the jobs service")
    await waitFor(() => live.received.length > 0, 'the live notification of the request')
    const received = await call(
      'GET',
      `/api/jobs/user/${owner.userId}/received-requests`,
      owner.token,
    )
    assert.equal(received.status, 200)
    const accepted = await call('PATCH', `/api/jobs/requests/${state.requestId}`, owner.token, {
      status: 'accepted',
    })
    assert.equal(accepted.status, 200, `accept: ${JSON.stringify(accepted.body)}`)
  })

  it('they exchange messages in the request conversation', async () => {
    const { owner, worker } = state
    state.conversationId = await waitFor(async () => {
      const found = await call(
        'GET',
        `/api/conversations/by-request/${state.requestId}`,
        worker.token,
      )
      return found.status === 200 ? found.body._id : undefined
    }, 'the conversation of the request')
    const path = `/api/conversations/${state.conversationId}/messages`
    assert.equal((await call('POST', path, worker.token, { text: 'Saturday at 9?' })).status, 201)
    assert.equal((await call('POST', path, owner.token, { text: 'Saturday at 9.' })).status, 201)
    assert.deepEqual(
      (await messagesOf(state.conversationId, owner)).sort(),
      ['Saturday at 9.', 'Saturday at 9?'].sort(),
    )
  })

  it('a killed container is started again and the journey goes on, nothing acknowledged lost', async () => {
    const { owner, worker } = state
    const container = compose('ps', '--quiet', 'conversations').trim()
    assert.ok(container, 'the conversations container')
    const started = Date.now()
    execFileSync('docker', ['kill', container], { stdio: 'ignore' })
    const path = `/api/conversations/${state.conversationId}/messages`
    // While it is down the gateway answers with an error: nothing is acknowledged.
    const refused = await call('POST', path, worker.token, { text: 'lost on purpose' })
    assert.notEqual(refused.status, 201)
    execFileSync('docker', ['start', container], { stdio: 'ignore' })
    await waitFor(
      async () => (await call('POST', path, worker.token, { text: 'Back again?' })).status === 201,
      'the conversations service answering again',
    )
    times['killed container back'] = (Date.now() - started) / 1000
    assert.equal((await call('POST', path, owner.token, { text: 'Yes, see you.' })).status, 201)
    const texts = await messagesOf(state.conversationId, worker)
    for (const text of ['Saturday at 9?', 'Saturday at 9.', 'Back again?', 'Yes, see you.']) {
      assert.ok(texts.includes(text), `"${text}" kept`)
    }
    assert.ok(!texts.includes('lost on purpose'))
  })

  it('down and up again with the volumes (warm start): every account, post and message is there', async () => {
    compose('down')
    upAndTime('warm start (volumes kept, images built)')
    const owner = await waitFor(() => login(state.owner.email), 'the owner logging in again')
    const post = await call('GET', `/api/jobs/${state.postId}`, owner.token)
    assert.equal(post.status, 200)
    assert.equal(post.body.title, state.title)
    const texts = await messagesOf(state.conversationId, owner)
    assert.equal(texts.length, 4)
  })
})
