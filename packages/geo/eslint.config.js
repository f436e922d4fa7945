module.exports = require('@marketplace/eslint-config')
