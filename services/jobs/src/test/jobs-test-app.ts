import { startServiceTestApp } from '@marketplace/service-kit/testing'
import { buildJobsApp } from '../app'
import { readConfig } from '../config'

export type JobsApp = Awaited<ReturnType<typeof buildJobsApp>>
export type { HttpAnswer } from '@marketplace/service-kit/testing'

/** The jobs app as server.ts builds it, against the real servers (service-test-app.ts). */
export function startJobsTestApp(name: string, env: Record<string, string> = {}) {
  return startServiceTestApp(name, (base) => buildJobsApp(readConfig({ ...base, ...env })))
}

export type JobsTestApp = Awaited<ReturnType<typeof startJobsTestApp>>
