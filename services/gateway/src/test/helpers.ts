import http, { type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { buildGateway } from '../app'
import { loadGatewayConfig } from '../config'

export interface RunningGateway {
  app: FastifyInstance
  url: string
  port: number
}

/** A real gateway on 127.0.0.1 and a random port, configured the way server.ts would be. */
export async function startGateway(env: Record<string, string> = {}): Promise<RunningGateway> {
  const config = loadGatewayConfig({ LOG_LEVEL: 'silent', ...env })
  const app = await buildGateway(config)
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  return { app, port, url: `http://127.0.0.1:${port}` }
}

export interface RecordedRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export interface RecordingUpstream {
  url: string
  requests: RecordedRequest[]
  close(): Promise<void>
}

/**
 * A stand-in service: records what arrives and answers `{ service, method, url }`, with an
 * x-powered-by header a careless framework would send.
 */
export async function startRecordingUpstream(service: string): Promise<RecordingUpstream> {
  const requests: RecordedRequest[] = []
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const recorded = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(recorded)
      response.writeHead(200, { 'content-type': 'application/json', 'x-powered-by': 'Express' })
      response.end(JSON.stringify({ service, method: recorded.method, url: recorded.url }))
    })
  })
  const url = await listen(server)
  return { url, requests, close: () => closeServer(server) }
}

export async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export function closeServer(server: http.Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  )
}

/** The URL of a port that was just free: nothing listens there. */
export async function unusedUrl(): Promise<string> {
  const server = http.createServer()
  const url = await listen(server)
  await closeServer(server)
  return url
}

export interface RawResponse {
  status: number
  headers: IncomingHttpHeaders
  body: string
}

/**
 * node:http for what fetch will not do: set Host, send Expect, stream a body without a
 * length, or ask for a WebSocket upgrade.
 */
export function rawRequest(
  url: string,
  options: http.RequestOptions & { body?: string | Buffer; waitForContinue?: boolean },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, options, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      )
    })
    request.on('error', reject)
    request.on('upgrade', (response, socket) => {
      socket.destroy()
      resolve({ status: response.statusCode ?? 0, headers: response.headers, body: '' })
    })
    if (options.waitForContinue) {
      request.on('continue', () => request.end(options.body))
    } else {
      request.end(options.body)
    }
  })
}
