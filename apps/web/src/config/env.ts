/**
 * Run-time settings of the app, served by the gateway at /app-config.json so one build runs
 * in every environment (compose, Kubernetes, start.sh). Read once at start (main.tsx).
 */
export interface AppConfig {
  /** Where pictures (userImages/..., jobImages/...) are read from, without a trailing slash. */
  publicBucketUrl: string
}

let config: AppConfig = { publicBucketUrl: '' }

export async function loadAppConfig(): Promise<AppConfig> {
  try {
    const response = await fetch('/app-config.json', { headers: { accept: 'application/json' } })
    if (response.ok) {
      const body = (await response.json()) as Partial<AppConfig>
      config = { publicBucketUrl: (body.publicBucketUrl ?? '').replace(/\/+$/, '') }
    }
  } catch {
    // Pictures then fall back to same-origin paths; everything else works.
  }
  return config
}

export const appConfig = (): AppConfig => config

export function setAppConfigForTests(next: AppConfig): void {
  config = next
}
