import { createServiceApp } from './create-app'
import { loadReadModels, type ReadModel } from './read-model'
import { waitFor } from './testing/wait-for'

describe('read model metrics', () => {
  it('report whether the model is loaded and how long its load took', async () => {
    const app = await createServiceApp({ serviceName: 'read-model-test', logLevel: 'silent' })
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let loaded = false
    const model: ReadModel = {
      name: 'feed',
      label: 'feed index',
      startsItsGroup: true,
      async load() {
        await gate
        await new Promise((resolve) => setTimeout(resolve, 60))
        loaded = true
      },
      isLoaded: () => loaded,
    }
    try {
      await loadReadModels(app, [model])
      const metrics = async () => (await app.inject({ url: '/metrics' })).body

      expect(await metrics()).toMatch(/^read_model_loaded\{model="feed"[^}]*\} 0$/m)
      release()
      await waitFor(
        async () => /^read_model_loaded\{model="feed"[^}]*\} 1$/m.test(await metrics()),
        {
          what: 'the model counted as loaded',
        },
      )
      const seconds = Number(
        /^read_model_load_seconds\{model="feed"[^}]*\} ([\d.e-]+)$/m.exec(await metrics())?.[1],
      )
      expect(seconds).toBeGreaterThanOrEqual(0.05)
      expect(seconds).toBeLessThan(5)
    } finally {
      await app.close()
    }
  })
})
