module.exports = {
  ...require('@marketplace/jest-config')({ integration: true }),
  testTimeout: 180_000,
}
