import net from 'node:net'
import {
  startGateway,
  startRecordingUpstream,
  type RecordingUpstream,
  type RunningGateway,
} from '../test/helpers'

/** The request line exactly as written (node:http would refuse or re-encode some of these). */
function rawGet(port: number, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`)
    })
    let text = ''
    const done = () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)
      socket.destroy()
      resolve({ status, body: text.slice(text.indexOf('\r\n\r\n') + 4) })
    }
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1')
      const head = text.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, head))?.[1]
      if (head === -1) return
      if (
        length !== undefined ? text.length - head - 4 >= Number(length) : text.endsWith('0\r\n\r\n')
      )
        done()
    })
    socket.on('error', reject)
    socket.on('end', done)
  })
}

// The proxy forwards the path as the browser sent it, so it must refuse any path that would
// leave the prefix once the service (or a URL parser on the way) resolves it.
describe('the proxy refuses paths that would leave their prefix', () => {
  let people: RecordingUpstream
  let auth: RecordingUpstream
  let gateway: RunningGateway

  beforeAll(async () => {
    people = await startRecordingUpstream('people')
    auth = await startRecordingUpstream('auth')
    gateway = await startGateway({ PEOPLE_URL: people.url, AUTH_URL: auth.url })
  })

  afterAll(async () => {
    await gateway?.app.close()
    await people?.close()
    await auth?.close()
  })

  it.each([
    '/api/people/../auth/refresh',
    '/api/people/..',
    '/api/people/x/../../auth/refresh',
    '/api/people/%2e%2e/auth/refresh',
    '/api/people/%2E%2E/auth/refresh',
    '/api/people/.%2e/auth/refresh',
    '/api/people/..%2fauth%2frefresh',
    '/api/people/..%2Fauth',
    '/api/people/..%5cauth',
    '/api/people/..\\auth\\refresh',
    '/api/people/x\\..\\..\\auth',
    '/api/people/%252e%252e/%2e%2e/auth',
    '/api/people/%zz',
    // reply-from refuses any '/..' or '../' in the decoded path, whole segment or not.
    '/api/people/a/...',
    '/api/people/%',
  ])('%s is refused and never reaches a service', async (target) => {
    const before = people.requests.length + auth.requests.length
    const response = await rawGet(gateway.port, target)

    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    expect(people.requests.length + auth.requests.length).toBe(before)
  })

  it.each([
    ['/api/people/abc', '/api/people/abc'],
    ['/api/people', '/api/people'],
    ['/api/people/', '/api/people/'],
    ['/api/people/a.b/c...d', '/api/people/a.b/c...d'],
    // A '.' segment stays inside the prefix; the URL is resolved before it is sent.
    ['/api/people/./x', '/api/people/x'],
    ['/api/people/%C3%A9t%C3%A9?q=%2e%2e', '/api/people/%C3%A9t%C3%A9?q=%2e%2e'],
    ['/api/people/x?next=../../auth&a=1&a=2', '/api/people/x?next=../../auth&a=1&a=2'],
    ['/api/people/x?q=a+b%20c', '/api/people/x?q=a+b%20c'],
    ["/api/people/a:b@c!$&'()*+,;=~_-", "/api/people/a:b@c!$&'()*+,;=~_-"],
    ['/api/people/%2F', '/api/people/%2F'],
  ])('%s is forwarded as it came', async (target, forwarded) => {
    const response = await rawGet(gateway.port, target)

    expect(response.status).toBe(200)
    expect(people.requests.at(-1)?.url).toBe(forwarded)
  })

  it('an absolute URL as the request target never reaches a service', async () => {
    const before = people.requests.length + auth.requests.length
    const response = await rawGet(gateway.port, 'http://evil.example/api/people/x')

    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(people.requests.length + auth.requests.length).toBe(before)
  })
})
