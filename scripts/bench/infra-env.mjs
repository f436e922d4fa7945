// What the benchmarks read to find the local servers: the file `infra/local/infra.sh up`
// writes (the same one the test helpers read, packages/service-kit/src/testing/infra-env.ts).
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export function infraEnv() {
  const file = join(repoRoot, '.data', 'infra.env')
  if (!existsSync(file))
    throw new Error('Run "bash infra/local/infra.sh up" first (.data/infra.env is missing)')
  const env = {}
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = line.match(/^([A-Z0-9_]+)=(.*)$/)
    if (match) env[match[1]] = match[2].replace(/^'(.*)'$/, '$1')
  }
  return env
}
