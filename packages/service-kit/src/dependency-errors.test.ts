import { createServer } from 'node:net'
import Fastify from 'fastify'
import { isDependencyUnreachable } from './dependency-errors'
import { errorHandlerPlugin } from './plugins/error-handler'

/** A port on this machine that nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

// A server behind the service that cannot be reached (object storage down, a socket the
// database had closed) answered 500 in the marketplace day under faults (docs/reliability.md);
// it is not a bug but a moment's outage: 503 with Retry-After, as for the database.
describe('a server behind the service that cannot be reached', () => {
  it('is told apart from a bug, through cause chains and AggregateErrors', async () => {
    const refused = await fetch(`http://127.0.0.1:${await closedPort()}/`).catch((e) => e)
    // fetch's own error ("fetch failed"), with the refusal as its cause.
    expect((refused as Error).message).toBe('fetch failed')
    expect(isDependencyUnreachable(refused)).toBe(true)
    const epipe = Object.assign(new Error('This socket has been ended by the other party'), {
      code: 'EPIPE',
    })
    expect(isDependencyUnreachable(epipe)).toBe(true)
    expect(isDependencyUnreachable(new AggregateError([epipe], 'all attempts failed'))).toBe(true)
    expect(isDependencyUnreachable(new Error('a bug'))).toBe(false)
    expect(isDependencyUnreachable(Object.assign(new Error('no file'), { code: 'ENOENT' }))).toBe(
      false,
    )
  })

  it('answers 503 with Retry-After, while a bug still answers 500', async () => {
    const port = await closedPort()
    const app = Fastify()
    await app.register(errorHandlerPlugin)
    app.get('/upload', async () => {
      await fetch(`http://127.0.0.1:${port}/bucket/object`, { method: 'PUT', body: 'x' })
      return { ok: true }
    })
    app.get('/bug', async () => {
      throw new Error('a bug')
    })
    const unreachable = await app.inject({ method: 'GET', url: '/upload' })
    expect(unreachable.statusCode).toBe(503)
    expect(unreachable.headers['retry-after']).toBe('5')
    expect(unreachable.json()).toEqual({
      message: 'The service is briefly unavailable. Please try again in a few seconds.',
      code: 'SERVICE_UNAVAILABLE',
    })
    expect((await app.inject({ method: 'GET', url: '/bug' })).statusCode).toBe(500)
    await app.close()
  })
})
