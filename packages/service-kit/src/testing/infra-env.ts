import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * Where the real servers of infra/local listen. Tests take the addresses from the
 * environment (CI and `scripts/test.sh` export them); when they are missing, the file that
 * `infra/local/infra.sh up` wrote is read, so `npx jest` in one package works too.
 */
export interface InfraEnv {
  mongoUrlBase: string
  mongoUrlOptions: string
  kafkaBrokers: string
  s3Endpoint: string
  s3AccessKey: string
  s3SecretKey: string
  s3Region: string
  smtpHost: string
  smtpPort: number
  mailApiUrl: string
  infraScript: string
}

function findInfraEnvFile(start = process.cwd()): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, '.data', 'infra.env')
    if (existsSync(candidate)) return candidate
    if (dirname(dir) === dir) return null
  }
}

function readEnvFile(path: string): Record<string, string> {
  const values: Record<string, string> = {}
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const match = line.match(/^([A-Z0-9_]+)=(.*)$/)
    // Values may be single-quoted for bash (the Mongo options contain '&').
    if (match) values[match[1]!] = match[2]!.replace(/^'(.*)'$/, '$1')
  }
  return values
}

let cached: InfraEnv | null = null

export function infraEnv(): InfraEnv {
  if (cached) return cached
  const file = process.env.KAFKA_BROKERS ? null : findInfraEnvFile()
  const env: Record<string, string | undefined> = {
    ...(file ? readEnvFile(file) : {}),
    ...process.env,
  }
  const need = (key: string) => {
    const value = env[key]
    if (!value) {
      throw new Error(
        `${key} is not set: integration tests need the real servers. Run "bash infra/local/infra.sh up" first ` +
          '(it writes .data/infra.env), or use "bash scripts/test.sh", which does it for you.',
      )
    }
    return value
  }
  cached = {
    mongoUrlBase: need('MONGO_URL_BASE'),
    mongoUrlOptions: env.MONGO_URL_OPTIONS ?? 'directConnection=true&retryWrites=false',
    kafkaBrokers: need('KAFKA_BROKERS'),
    s3Endpoint: need('S3_ENDPOINT'),
    s3AccessKey: need('S3_ACCESS_KEY'),
    s3SecretKey: need('S3_SECRET_KEY'),
    s3Region: env.S3_REGION ?? 'us-east-1',
    smtpHost: need('SMTP_HOST'),
    smtpPort: Number(need('SMTP_PORT')),
    mailApiUrl: need('MAIL_API_URL'),
    infraScript: need('INFRA_SCRIPT'),
  }
  return cached
}

/** A database of its own for one test file, so suites never see each other's documents. */
export function testMongoUrl(label: string): string {
  const { mongoUrlBase, mongoUrlOptions } = infraEnv()
  const name = `test_${label.replace(/\W+/g, '_')}_${randomBytes(4).toString('hex')}`
  return `${mongoUrlBase}/${name}?${mongoUrlOptions}`
}
