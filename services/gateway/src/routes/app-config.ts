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
  app.get('/app-config.json', async (_request, reply) => {
    reply.header('cache-control', 'no-cache')
    return body
  })
}
