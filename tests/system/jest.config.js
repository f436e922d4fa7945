// The system tests start whole stacks as separate processes. Each file's stack has its own
// databases, consumer groups and ports, so two files can run at once, except the files that
// stop the shared broker of infra/local: every other stack alive at that moment would lose
// its events for half a minute. scripts/test.sh runs those alone first
// (SYSTEM_TESTS=exclusive), then the rest two at a time (SYSTEM_TESTS=shared); without the
// variable every file runs, one at a time, as a developer expects from `pnpm test`.
const stopsSharedBroker = ['notifications-reliability.test.ts', 'signup-slice.test.ts']
const onlyThese = (files) => [`/src/(${files.map((file) => file.replace(/\./g, '\\.')).join('|')})$`]

const base = {
  ...require('@marketplace/jest-config')({ integration: true }),
  testTimeout: 180_000,
}
const selection = process.env.SYSTEM_TESTS
if (selection && selection !== 'exclusive' && selection !== 'shared')
  throw new Error(`SYSTEM_TESTS must be "exclusive" or "shared", not "${selection}"`)

module.exports =
  selection === 'exclusive'
    ? { ...base, testRegex: onlyThese(stopsSharedBroker), testMatch: undefined }
    : selection === 'shared'
      ? { ...base, testPathIgnorePatterns: ['/node_modules/', ...onlyThese(stopsSharedBroker)], maxWorkers: 2 }
      : base
