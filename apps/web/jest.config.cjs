// Components and hooks run in jsdom with Testing Library; the same SWC transform as the
// services, with JSX. Journeys through a real browser live in tests/system (Playwright).
const base = require('@marketplace/jest-config')()

module.exports = {
  ...base,
  // build/ holds the Vite plugins the build runs (node code, tested in node).
  roots: ['<rootDir>/src', '<rootDir>/build'],
  testEnvironment: '<rootDir>/src/test/jsdom-environment.cjs',
  // Five seconds (the unit default) is too little for a form typed key by key in jsdom while
  // the CI runs the integration suites beside it on two cores (a loaded run timed out 13 of
  // them, and a test that times out keeps typing into the next one's form). A hung test still
  // fails; nothing here measures speed.
  testTimeout: 30_000,
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  setupFilesAfterEnv: ['<rootDir>/src/test/setup.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
        module: { type: 'commonjs' },
      },
    ],
  },
  // Order matters: stylesheets and pictures first, also when imported through '@/'.
  moduleNameMapper: {
    '\\.(css)$': '<rootDir>/src/test/style-stub.cjs',
    '\\.(png|jpg|jpeg|svg)$': '<rootDir>/src/test/file-stub.cjs',
    '^@marketplace/contracts/(.*)$': '<rootDir>/../../packages/contracts/src/$1/index.ts',
    '^@/(.*)$': '<rootDir>/src/$1',
  },
}
