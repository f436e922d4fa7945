const base = require('@marketplace/jest-config')({ integration: true })

module.exports = {
  ...base,
  // @fastify/static requires content-disposition 3, which ships ESM only. Node >= 20.19 loads it
  // through require(esm); Jest's module runtime cannot (before Node 24.9), so SWC compiles it.
  transformIgnorePatterns: ['/node_modules/(?!(?:\\.pnpm/)?content-disposition[@/])'],
}
