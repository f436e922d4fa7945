import { Type } from '@sinclair/typebox'
import type { FastifyInstance } from 'fastify'

export interface AppConfigRouteOptions {
  /** Where the browser reads pictures from (the public bucket URL). */
  publicBucketUrl: string
}

/**
 * GET /app-config.json: the web app's run-time settings. One build of the SPA then runs in
 * every environment (start.sh, compose, Kubernetes); only the gateway's configuration
 * differs. Nothing secret belongs here: every visitor reads it.
 */
export async function appConfigRoute(app: FastifyInstance, options: AppConfigRouteOptions) {
  const body = { publicBucketUrl: options.publicBucketUrl.replace(/\/+$/, '') }
  const schema = {
    hide: true,
    response: {
      200: Type.Object({ publicBucketUrl: Type.String() }, { additionalProperties: false }),
    },
  }
  app.get('/app-config.json', { schema }, async (_request, reply) => {
    reply.header('cache-control', 'no-cache')
    return body
  })
}
