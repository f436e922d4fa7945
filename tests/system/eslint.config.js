// System tests start services as processes and hand them an environment: process.env is
// their job here, not a configuration leak.
module.exports = [
  ...require('@marketplace/eslint-config'),
  { rules: { 'no-restricted-properties': 'off' } },
]
