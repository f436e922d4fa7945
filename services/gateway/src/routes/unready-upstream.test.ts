import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  startGateway,
  startRecordingUpstream,
  unusedUrl,
  type RecordingUpstream,
  type RunningGateway,
} from '../test/helpers'

// A load balancer (a Kubernetes Service, compose's healthcheck) sends the whole site to the
// gateway's ready pods only. If one service without ready instances made every gateway pod
// unready, the web app and every other service would be cut off with it. So the gateway is
// ready when it can serve, and a service that cannot be reached answers 503 on its own routes.
describe('one service down while the others serve', () => {
  let workDir: string
  let jobs: RecordingUpstream
  let gateway: RunningGateway

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'gateway-unready-'))
    await writeFile(path.join(workDir, 'index.html'), '<!doctype html><title>Marketplace</title>')
    jobs = await startRecordingUpstream('jobs')
    gateway = await startGateway({
      WEB_DIST_DIR: workDir,
      JOBS_URL: jobs.url,
      // Configured, but nothing listens: its instances are down or none is ready.
      PEOPLE_URL: await unusedUrl(),
      NOTIFICATIONS_URL: await unusedUrl(),
    })
  })

  afterAll(async () => {
    await gateway.app.close()
    await jobs.close()
    await rm(workDir, { recursive: true, force: true })
  })

  it('the gateway stays ready', async () => {
    const response = await fetch(`${gateway.url}/readyz`)

    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ status: 'ready' })
  })

  it('the down service’s routes answer 503 with Retry-After in the JSON error shape', async () => {
    for (const route of ['/api/users/me', '/api/people/search']) {
      const response = await fetch(`${gateway.url}${route}`)

      expect(response.status).toBe(503)
      expect(response.headers.get('retry-after')).toBe('5')
      expect(await response.json()).toEqual({
        message: 'The people service could not be reached',
        code: 'UPSTREAM_UNREACHABLE',
      })
    }
  })

  it('Socket.IO, with no notifications instance to connect to, answers 503 with Retry-After', async () => {
    const response = await fetch(`${gateway.url}/socket.io/?EIO=4&transport=polling`)

    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(await response.json()).toMatchObject({ code: 'UPSTREAM_UNREACHABLE' })
  })

  it('the other services answer as usual', async () => {
    const response = await fetch(`${gateway.url}/api/jobs?page=1`)

    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      service: 'jobs',
      method: 'GET',
      url: '/api/jobs?page=1',
    })
  })

  it('the web app is served', async () => {
    const response = await fetch(`${gateway.url}/feed`, { headers: { accept: 'text/html' } })

    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<title>Marketplace</title>')
  })

  it('a service that is not deployed answers 503 with Retry-After too', async () => {
    const response = await fetch(`${gateway.url}/api/reports`)

    expect(response.status).toBe(503)
    expect(response.headers.get('retry-after')).toBe('5')
    expect(await response.json()).toMatchObject({ code: 'UPSTREAM_UNAVAILABLE' })
  })
})
