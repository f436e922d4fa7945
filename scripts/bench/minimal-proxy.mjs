#!/usr/bin/env node
// The "floor" of the feed benchmarks (docs/benchmarks.md): the least a Node proxy hop can do,
// so the cost of any Node proxy on this machine can be told apart from the gateway's own.
// node:http in front, undici to the service (the same undici version the gateway's
// @fastify/reply-from uses), keep-alive, response streamed back. No routing, no limits, no
// headers of its own, no logs, no metrics: never shipped, never exposed, bench only.
//
//   UPSTREAM=http://127.0.0.1:4903 PORT=4981 node scripts/bench/minimal-proxy.mjs
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { pipeline } from 'node:stream'
import { repoRoot } from './infra-env.mjs'

// undici as the gateway's proxy resolves it: @fastify/reply-from -> undici.
const fromGateway = createRequire(join(repoRoot, 'services', 'gateway', 'package.json'))
const { Pool } = createRequire(fromGateway.resolve('@fastify/reply-from'))('undici')

const upstream = process.env.UPSTREAM ?? 'http://127.0.0.1:4903'
const port = Number(process.env.PORT ?? 4981)
const pool = new Pool(upstream, { connections: 128, pipelining: 1 })
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host'])

const server = createServer((req, res) => {
  const headers = {}
  for (const name in req.headers) if (!HOP_BY_HOP.has(name)) headers[name] = req.headers[name]
  const body = req.method === 'GET' || req.method === 'HEAD' ? null : req
  pool.request({ method: req.method, path: req.url, headers, body }, (error, upstreamRes) => {
    if (error) {
      res.writeHead(502).end()
      return
    }
    const out = {}
    for (const name in upstreamRes.headers) {
      if (!HOP_BY_HOP.has(name)) out[name] = upstreamRes.headers[name]
    }
    // The client may have gone while the service answered (autocannon closes its
    // connections at the end of a run): pipeline throws on a destroyed stream.
    if (res.destroyed) {
      upstreamRes.body.destroy()
      return
    }
    res.writeHead(upstreamRes.statusCode, out)
    pipeline(upstreamRes.body, res, () => {})
  })
})
server.keepAliveTimeout = 72_000
server.listen(port, '127.0.0.1')
process.on('SIGTERM', () => {
  server.close()
  pool.close().then(() => process.exit(0))
  server.closeAllConnections()
})
