import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { infraEnv, waitFor } from '@marketplace/service-kit/testing'

/** A port the OS just gave us and took back: free for the service we start next. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** `count` different free ports: all held at once, so none is handed out twice. */
export async function freePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer())
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject)
          server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port))
        }),
    ),
  )
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  return ports
}

export interface RunningService {
  name: string
  url: string
  process: ChildProcess
  stop(): Promise<void>
}

const repoRoot = join(__dirname, '..', '..', '..')
const logDir = join(repoRoot, '.data', 'logs', 'system-tests')

/**
 * When this test file began (each file loads its own copy of this module, and files run one
 * after another): its stacks' events are all published after it, every earlier file's before.
 */
const STACKS_SINCE = Date.now()

/**
 * Starts a built service (`node dist/server.js`) as its own process, the way it runs in
 * production, and waits for its /healthz. Logs go to .data/logs/system-tests/<name>.log.
 */
export async function startService(
  name: string,
  packageDir: string,
  env: Record<string, string>,
): Promise<RunningService> {
  const port = Number(env.PORT)
  const entry = join(repoRoot, packageDir, 'dist', 'server.js')
  mkdirSync(logDir, { recursive: true })
  const log = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' })
  const child = spawn(process.execPath, [entry], {
    cwd: dirname(dirname(entry)),
    // Every stack here starts with empty databases of its own, on a broker whose topics hold
    // the history of every test before it: its new groups read from this file's start
    // (KAFKA_NEW_GROUPS_SINCE, service-kit config), not behind minutes of others' events.
    env: {
      PATH: process.env.PATH ?? '',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      KAFKA_NEW_GROUPS_SINCE: String(STACKS_SINCE),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.pipe(log)
  child.stderr?.pipe(log)
  const url = `http://127.0.0.1:${port}`
  // Two test files start stacks at once, and a free port found by one can be taken by the
  // other before this child binds it: then the child dies with EADDRINUSE while another
  // stack's service answers /healthz on "its" port, and the test talks to the wrong service.
  // So the child's own "Server listening at <url>" line must have been logged first (at info
  // level, which every stack here uses; at a quieter level only /healthz is waited for).
  const logsListening = ['trace', 'debug', 'info'].includes(env.LOG_LEVEL ?? 'info')
  let listening = false
  let seen = ''
  child.stdout?.on('data', (chunk: Buffer) => {
    if (listening) return
    seen = (seen + chunk.toString('utf8')).slice(-4096)
    if (seen.includes(`Server listening at ${url}`)) listening = true
  })
  // A service that never became healthy is stopped here: nobody else holds its handle, and
  // a live child would keep jest (and CI) from exiting.
  await waitFor(
    async () => {
      if (child.exitCode !== null)
        throw new Error(`${name} exited with ${child.exitCode}; see ${logDir}/${name}.log`)
      if (logsListening && !listening) return false
      return (await fetch(`${url}/healthz`)).ok
    },
    { timeoutMs: 120_000, what: `${name} to answer /healthz` },
  ).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
  return {
    name,
    url,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        // Gone already: it exited, or a test killed it (a signal leaves exitCode null).
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/**
 * Waits for a service's /readyz: its database, broker and consumer groups (every group
 * joined). A test that stops Kafka must wait for this, or a group still joining when the
 * broker goes would start late, at the end of its topics.
 */
export function waitUntilReady(service: RunningService, timeoutMs = 60_000): Promise<boolean> {
  return waitFor(async () => (await fetch(`${service.url}/readyz`)).ok, {
    timeoutMs,
    what: `${service.name} to answer /readyz`,
  })
}

/** What only the auth service gets: the signing key, its HMAC secret and the mail server. */
export function authOnlyEnv(keys: { privateKey: string }): Record<string, string> {
  const infra = infraEnv()
  return {
    JWT_PRIVATE_KEY: Buffer.from(keys.privateKey).toString('base64'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
    SMTP_HOST: infra.smtpHost,
    SMTP_PORT: String(infra.smtpPort),
  }
}

/** The 6-digit code of the newest mail to `email`, read from the mail server's API. */
export function mailedCode(email: string): Promise<string> {
  const { mailApiUrl } = infraEnv()
  return waitFor(
    async () => {
      const search = await fetch(`${mailApiUrl}/api/v1/search?query=to:${email}`)
      const [mail] = ((await search.json()) as { messages: Array<{ ID: string }> }).messages
      if (!mail) return undefined
      const full = (await (await fetch(`${mailApiUrl}/api/v1/message/${mail.ID}`)).json()) as {
        Text: string
      }
      return full.Text.match(/\b(\d{6})\b/)?.[1]
    },
    { timeoutMs: 30_000, what: `the mail with a code to ${email}` },
  )
}

/**
 * A browser-like client of the whole site behind the gateway: `call` sends a same-origin
 * request with an optional bearer token; `member` signs a new person up, verifies them with
 * the mailed code, logs in and waits until people has their profile.
 */
export function siteClient(site: string) {
  async function call(method: string, path: string, token?: string, body?: object) {
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
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each test reads its fields
    return { status: response.status, body: (text ? JSON.parse(text) : null) as any }
  }

  async function login(email: string, password: string) {
    const answer = await call('POST', '/api/auth/direct-login', undefined, { email, password })
    if (answer.status !== 200) throw new Error(`login of ${email}: ${answer.status}`)
    return {
      userId: answer.body.user._id as string,
      token: answer.body.accessToken as string,
      roles: answer.body.user.roles as string[],
    }
  }

  async function member(firstname: string, lastname: string) {
    const email = `${firstname}-${randomBytes(5).toString('hex')}@example.test`.toLowerCase()
    const password = 'Cascade2026!'
    const signup = await call('POST', '/api/auth/signup', undefined, {
      firstname,
      lastname,
      email,
      phoneNumber: '2125550100',
      password,
      dateOfBirth: '1985-03-01',
      interest: 'Both',
      emailPreferences: false,
      termsAgreed: true,
    })
    if (signup.status !== 201) throw new Error(`signup of ${email}: ${signup.status}`)
    const code = await mailedCode(email)
    const confirmed = await call('POST', '/api/auth/confirm-signup', undefined, { email, code })
    if (confirmed.status !== 200) throw new Error(`confirmation of ${email}: ${confirmed.status}`)
    const { userId, token } = await login(email, password)
    await waitFor(async () => (await call('GET', `/api/users/${userId}`, token)).status === 200, {
      timeoutMs: 60_000,
      what: `${firstname}'s profile in people`,
    })
    return { userId, email, password, token }
  }

  return { call, login, member }
}
