import config from '@marketplace/eslint-config'

export default [
  ...config,
  { ignores: ['dist/**'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    // The browser has no process.env; configuration comes from /app-config.json (config/env.ts).
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly', URL: 'readonly', globalThis: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]
