import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { waitFor } from '@marketplace/service-kit/testing'
import {
  closeServer,
  listen,
  startGateway,
  startRecordingUpstream,
  unusedUrl,
  type RecordingUpstream,
  type RunningGateway,
} from '../test/helpers'

// Two instances of one service behind one prefix (JOBS_URL=a,b): requests spread over both,
// a request that reached no instance goes to the other, one that may have reached a service
// is never sent twice, and an instance that comes back gets its share again.

const served = async (gateway: RunningGateway, count: number, init: RequestInit = {}) => {
  const answers: { status: number; service?: string }[] = []
  for (let i = 0; i < count; i += 1) {
    const response = await fetch(`${gateway.url}/api/jobs/posts`, init)
    answers.push({ status: response.status, ...((await response.json()) as object) })
  }
  return answers
}

describe('proxying to two instances of a service', () => {
  const running: Array<{ close(): Promise<void> }> = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((thing) => thing.close()))
  })
  async function upstream(name: string): Promise<RecordingUpstream> {
    const started = await startRecordingUpstream(name)
    running.push(started)
    return started
  }
  async function gateway(env: Record<string, string>): Promise<RunningGateway> {
    const started = await startGateway(env)
    running.push({ close: () => started.app.close() })
    return started
  }

  it('spreads requests over both', async () => {
    const [a, b] = [await upstream('a'), await upstream('b')]
    const site = await gateway({ JOBS_URL: `${a.url},${b.url}` })

    const answers = await served(site, 20)

    expect(answers.every((answer) => answer.status === 200)).toBe(true)
    expect(a.requests.length).toBeGreaterThanOrEqual(5)
    expect(b.requests.length).toBeGreaterThanOrEqual(5)
  })

  it('with one instance down, every request is answered by the other, POSTs included', async () => {
    const alive = await upstream('alive')
    const site = await gateway({ JOBS_URL: `${await unusedUrl()},${alive.url}` })

    const gets = await served(site, 10)
    const posts = await served(site, 10, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"title":"Fix a fence"}',
    })

    expect([...gets, ...posts]).toEqual(
      Array.from({ length: 20 }, () => expect.objectContaining({ status: 200, service: 'alive' })),
    )
    // Each POST reached the service once, with its body.
    const received = alive.requests.filter((request) => request.method === 'POST')
    expect(received).toHaveLength(10)
    expect(received.every((request) => request.body === '{"title":"Fix a fence"}')).toBe(true)
  })

  it('a POST whose connection broke under it is not sent again; a GET is, to the other instance', async () => {
    const arrived: string[] = []
    // Reads the request, then drops the connection without an answer, like a process killed
    // while it handled it: the request may have had its effect.
    const breaking = http.createServer((request) => {
      arrived.push(request.method ?? '')
      request.resume()
      request.on('end', () => request.socket.destroy())
    })
    const breakingUrl = await listen(breaking)
    running.push({ close: () => closeServer(breaking) })
    const other = await upstream('other')
    const site = await gateway({ JOBS_URL: `${breakingUrl},${other.url}` })

    const posts = await served(site, 4, { method: 'POST', body: 'x' })
    const gets = await served(site, 4)

    const brokenPosts = arrived.filter((method) => method === 'POST').length
    expect(brokenPosts).toBeGreaterThan(0)
    // Those POSTs answered 502 and never reached the other instance.
    expect(posts.filter((answer) => answer.status === 502)).toHaveLength(brokenPosts)
    expect(other.requests.filter((request) => request.method === 'POST')).toHaveLength(
      4 - brokenPosts,
    )
    expect(gets.every((answer) => answer.status === 200 && answer.service === 'other')).toBe(true)
  })

  it('a keyed POST whose connection broke goes once to the other instance; an idempotent route without a key answers 503', async () => {
    const arrived: Array<{ method: string; key?: string }> = []
    const breaking = http.createServer((request) => {
      const key = request.headers['idempotency-key']
      arrived.push({ method: request.method ?? '', ...(typeof key === 'string' && { key }) })
      request.resume()
      request.on('end', () => request.socket.destroy())
    })
    const breakingUrl = await listen(breaking)
    running.push({ close: () => closeServer(breaking) })
    const other = await upstream('other')
    const site = await gateway({ JOBS_URL: `${breakingUrl},${other.url}` })

    const keyed = []
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(`${site.url}/api/jobs/requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': `key-${i}` },
        body: '{"jobId":"j1"}',
      })
      keyed.push({ status: response.status, ...((await response.json()) as object) })
    }
    // Every one answered by the instance that stayed, the broken ones on their second try.
    expect(keyed).toEqual(
      Array.from({ length: 4 }, () => expect.objectContaining({ status: 200, service: 'other' })),
    )
    const broken = arrived.filter((request) => request.method === 'POST')
    expect(broken.length).toBeGreaterThan(0)
    const repeated = other.requests.filter((request) => request.method === 'POST')
    expect(repeated).toHaveLength(4)
    // The repeat carries the same key, so the service can answer it with the first answer.
    for (const { key } of broken) {
      expect(repeated.filter((request) => request.headers['idempotency-key'] === key)).toHaveLength(
        1,
      )
    }

    // One instance only, which breaks every connection: nowhere else to go.
    const alone = await gateway({ JOBS_URL: breakingUrl, NOTIFICATIONS_URL: breakingUrl })
    const markAllRead = await fetch(`${alone.url}/api/notifications/mark-all-read`, {
      method: 'PATCH',
    })
    expect(markAllRead.status).toBe(503)
    expect(markAllRead.headers.get('retry-after')).toBe('1')
    const keyedAlone = await fetch(`${alone.url}/api/jobs/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'key-alone' },
      body: '{"jobId":"j1"}',
    })
    expect(keyedAlone.status).toBe(503)
    expect(keyedAlone.headers.get('retry-after')).toBe('1')
    // A POST without a key on a route that is not idempotent keeps its 502.
    const unkeyed = await fetch(`${alone.url}/api/jobs/requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"jobId":"j1"}',
    })
    expect(unkeyed.status).toBe(502)
    expect(unkeyed.headers.get('retry-after')).toBeNull()
  })

  it('an instance that comes back gets its share again', async () => {
    const steady = await upstream('steady')
    // A port that is free now: the instance is down, then starts on it.
    const port = Number(new URL(await unusedUrl()).port)
    const site = await gateway({ JOBS_URL: `http://127.0.0.1:${port},${steady.url}` })
    await served(site, 10)

    const back = http.createServer((request, response) => {
      request.resume()
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ service: request.url === '/healthz' ? 'health' : 'back' }))
    })
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve))
    running.push({ close: () => closeServer(back) })
    expect((back.address() as AddressInfo).port).toBe(port)

    // Within the pool's 2 s re-check, both take requests again in turn.
    await waitFor(
      async () => {
        const answers = await served(site, 10)
        const fromBack = answers.filter((answer) => answer.service === 'back').length
        return fromBack >= 4 && fromBack <= 6
      },
      { timeoutMs: 10_000, what: 'the instance that came back to get half the requests' },
    )
  })
})
