// The system tests start whole stacks as separate processes. Each file has a database server
// of its own, a container its jest environment starts (src/database-per-file-environment.ts),
// and consumer groups and ports of its own on the shared broker; the files that take a server
// away (Kafka, the database) start that server for themselves as a container
// (src/server-containers.ts), so no file stops a server another file uses. Two files still run alone: their bursts (hundreds of
// requests) and 30 s broker outages are the heaviest and most timing-bound, and a second stack
// sharing the two cores made them slow past their limits. scripts/test.sh runs those first
// (SYSTEM_TESTS=exclusive), then the rest two at a time (SYSTEM_TESTS=shared); without the
// variable every file runs, one at a time, as a developer expects from `pnpm test`.
const runAlone = ['notifications-reliability.test.ts', 'signup-slice.test.ts']
const onlyThese = (files) => [`/src/(${files.map((file) => file.replace(/\./g, '\\.')).join('|')})$`]

const base = {
  ...require('@marketplace/jest-config')({ integration: true }),
  // Each file's own database server, a container (src/database-per-file-environment.ts).
  testEnvironment: '<rootDir>/src/database-per-file-environment.ts',
  testTimeout: 180_000,
}
const selection = process.env.SYSTEM_TESTS
if (selection && selection !== 'exclusive' && selection !== 'shared')
  throw new Error(`SYSTEM_TESTS must be "exclusive" or "shared", not "${selection}"`)

module.exports =
  selection === 'exclusive'
    ? { ...base, testRegex: onlyThese(runAlone), testMatch: undefined }
    : selection === 'shared'
      ? { ...base, testPathIgnorePatterns: ['/node_modules/', ...onlyThese(runAlone)], maxWorkers: 2 }
      : base
