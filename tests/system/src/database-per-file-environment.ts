import { TestEnvironment } from 'jest-environment-node'
import { startDatabase } from './server-containers'

// Each system test file gets a MongoDB-protocol server of its own, as a container
// (testcontainers, the FerretDB image infra/images builds), started before the file loads and
// removed after it: no file shares a database server with another, so two files running side
// by side never queue behind each other's writes (the local server runs its writes one at a
// time), and nothing a file leaves behind reaches the next. The file sees the server as
// MONGO_URL_BASE, which testMongoUrl() and infraEnv() read, so the tests and the services they
// start use it without knowing. Kafka, S3 and SMTP stay the shared local servers: each file
// has consumer groups, buckets and addresses of its own there (docs/compose-and-kubernetes.md,
// "testcontainers", says why).
export default class DatabasePerFileEnvironment extends TestEnvironment {
  private removeDatabase: (() => Promise<void>) | undefined

  override async setup(): Promise<void> {
    await super.setup()
    const database = await startDatabase()
    this.removeDatabase = database.remove
    // The file's own process.env (jest gives each file a copy) and the worker's, for anything
    // the file starts that reads the environment of the process rather than the file's.
    this.global.process.env.MONGO_URL_BASE = database.urlBase
    process.env.MONGO_URL_BASE = database.urlBase
  }

  override async teardown(): Promise<void> {
    await this.removeDatabase?.()
    await super.teardown()
  }
}
