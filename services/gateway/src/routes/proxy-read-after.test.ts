import http from 'node:http'
import { ReadAfterMemory } from '../lib/read-after-memory'
import { closeServer, listen, startGateway, type RunningGateway } from '../test/helpers'

// Read-your-writes through the gateway for clients that send nothing (a plain HTTP client, the
// spec's): a write's answer names positions (X-Read-After), and the gateway adds them to the
// same caller's next reads of that service, on whichever instance they land.

interface Seen {
  instance: string
  method: string
  url: string
  readAfter: string | undefined
}

/** A service instance that answers writes with positions and records what reads carry. */
async function instance(name: string, seen: Seen[]) {
  let written = 0
  const server = http.createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      seen.push({
        instance: name,
        method: request.method ?? '',
        url: request.url ?? '',
        readAfter: request.headers['x-read-after'] as string | undefined,
      })
      const headers: Record<string, string> = { 'content-type': 'application/json' }
      if (request.method === 'POST') {
        written += 1
        headers['x-read-after'] = `post:${name}${written}@${written}`
      }
      if (request.method === 'PUT') {
        headers['x-read-after'] = `post:hidden${name}@7`
        headers['x-read-after-everyone'] = `post:hidden${name}@7`
      }
      response.writeHead(request.method === 'POST' ? 201 : 200, headers)
      response.end('{}')
    })
  })
  const url = await listen(server)
  return { url, close: () => closeServer(server) }
}

describe('gateway: the positions of a caller’s writes go with its next reads', () => {
  const seen: Seen[] = []
  let site: RunningGateway
  const closing: Array<() => Promise<unknown>> = []

  beforeAll(async () => {
    const [a, b, people] = [
      await instance('a', seen),
      await instance('b', seen),
      await instance('p', seen),
    ]
    closing.push(a.close, b.close, people.close)
    site = await startGateway({ JOBS_URL: `${a.url},${b.url}`, PEOPLE_URL: people.url })
    closing.push(() => site.app.close())
  })
  afterAll(async () => {
    for (const close of closing.reverse()) await close()
  })
  beforeEach(() => seen.splice(0))

  const send = (method: string, path: string, headers: Record<string, string> = {}) =>
    fetch(`${site.url}${path}`, { method, headers })

  it('sends a write’s position with the next reads of the same service, on both instances, merged with the client’s own', async () => {
    const token = { authorization: 'Bearer writer-token' }
    const written = await send('POST', '/api/jobs', token)
    expect(written.status).toBe(201)
    // The client sees the position too (the web app sends it back itself).
    const position = written.headers.get('x-read-after')!
    expect(position).toMatch(/^post:[ab]1@1$/)

    for (let i = 0; i < 4; i += 1) await send('GET', '/api/jobs?page=1', token)
    await send('GET', '/api/jobs?page=1', { ...token, 'x-read-after': 'post:mine@5' })
    const reads = seen.filter((request) => request.method === 'GET')
    expect(new Set(reads.map((read) => read.instance))).toEqual(new Set(['a', 'b']))
    expect(reads.slice(0, 4).every((read) => read.readAfter === position)).toBe(true)
    expect(reads[4]!.readAfter).toBe(`post:mine@5, ${position}`)
    // Another service's reads are not sent jobs' positions.
    await send('GET', '/api/people', token)
    expect(seen.at(-1)).toMatchObject({ instance: 'p', readAfter: undefined })
  })

  it('sends a write that hid something with everyone’s reads', async () => {
    await send('PUT', '/api/jobs/x', { authorization: 'Bearer owner' })
    await send('GET', '/api/jobs?page=1')
    const read = seen.filter((request) => request.method === 'GET').at(-1)!
    expect(read.readAfter).toMatch(/post:hidden[ab]@7/)
  })
})

describe('ReadAfterMemory', () => {
  it('keeps a caller’s positions under its keys, for its window; positions for everyone for theirs', () => {
    let now = 1_000
    const memory = new ReadAfterMemory({
      callerWindowMs: 100,
      everyoneWindowMs: 500,
      now: () => now,
    })
    expect(memory.isEmpty).toBe(true)
    const writer = ReadAfterMemory.keysOf({
      ip: '10.0.0.1',
      headers: { authorization: 'Bearer w' },
    })
    const sameTokenElsewhere = ReadAfterMemory.keysOf({
      ip: '10.0.0.9',
      headers: { authorization: 'Bearer w' },
    })
    const sameAddressAsGuest = ReadAfterMemory.keysOf({ ip: '10.0.0.1', headers: {} })
    const stranger = ReadAfterMemory.keysOf({
      ip: '10.0.0.2',
      headers: { authorization: 'Bearer s' },
    })
    // The token is kept hashed, never as sent.
    expect(writer.join(' ')).not.toContain('Bearer')

    memory.remember('jobs', writer, ['post:a@1', 'post:b@2'], ['post:b@2'])
    // Newest first: a service reads a bounded number of them.
    expect(memory.positionsFor('jobs', writer)).toEqual(['post:b@2', 'post:a@1'])
    expect(memory.positionsFor('jobs', sameTokenElsewhere)).toEqual(['post:b@2', 'post:a@1'])
    expect(memory.positionsFor('jobs', sameAddressAsGuest)).toEqual(['post:b@2', 'post:a@1'])
    expect(memory.positionsFor('jobs', stranger)).toEqual(['post:b@2'])
    expect(memory.positionsFor('people', writer)).toEqual([])

    now += 101
    expect(memory.positionsFor('jobs', writer)).toEqual(['post:b@2'])
    now += 400
    expect(memory.positionsFor('jobs', writer)).toEqual([])
    expect(memory.isEmpty).toBe(true)
  })

  it('keeps at most so many positions per caller and service, the newest', () => {
    const memory = new ReadAfterMemory({ perCaller: 3, perService: 2 })
    const keys = ['ip:1']
    for (let i = 0; i < 10; i += 1)
      memory.remember('jobs', keys, [`post:p${i}@${i}`], [`post:p${i}@${i}`])
    expect(memory.positionsFor('jobs', keys)).toEqual(['post:p9@9', 'post:p8@8', 'post:p7@7'])
    expect(memory.positionsFor('jobs', ['ip:2'])).toEqual(['post:p9@9', 'post:p8@8'])
  })
})
