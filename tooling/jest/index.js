// One jest preset for every package: TypeScript through SWC (no type-check at test time;
// `turbo run typecheck` does that), tests beside the code as *.test.ts.

// ESM-only packages that jest must compile to CommonJS before requiring, and
// @fastify/cookie, which loads `cookie` with a dynamic import() that jest's CommonJS runtime
// cannot run (SWC turns it into a require). otplib's `@scure/base` and `@noble/hashes` are
// ESM-only too. Names as pnpm spells them under node_modules/.pnpm.
const esmOnly = ['cookie', '@fastify\\+cookie', '@scure\\+base', '@noble\\+hashes']

/** @param {{ integration?: boolean }} [options] */
module.exports = function jestConfig(options = {}) {
  return {
    testEnvironment: 'node',
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.test.ts'],
    transform: {
      '^.+\\.(t|j)sx?$': [
        '@swc/jest',
        {
          jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
          module: { type: 'commonjs' },
        },
      ],
    },
    transformIgnorePatterns: [`/node_modules/\\.pnpm/(?!(${esmOnly.join('|')})@)`],
    // The summary reporter lets scripts/test.sh print one total for the whole repository.
    reporters: ['default', require.resolve('./summary-reporter.js')],
    // Integration tests talk to real servers (infra/local); give them room, and run files
    // one at a time so two suites never fight over the same broker partitions.
    testTimeout: options.integration ? 150_000 : 5_000,
    maxWorkers: options.integration ? 1 : '50%',
  }
}
