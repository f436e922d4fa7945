// Shared flat config: the recommended rules of ESLint and typescript-eslint, plus the
// project's own bans (process.env outside config.ts, relative imports across packages).
const js = require('@eslint/js')
const tseslint = require('typescript-eslint')

module.exports = tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { patterns: ['../../*/src/*', '../../../*'] }],
    },
  },
  {
    files: ['**/src/**/*.ts'],
    ignores: ['**/config.ts', '**/*.test.ts', '**/test/**', '**/testing/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration in config.ts only.' },
      ],
    },
  },
)
