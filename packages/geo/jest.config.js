module.exports = require('@marketplace/jest-config')({ integration: false })
