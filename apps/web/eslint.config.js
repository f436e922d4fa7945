import { readdirSync, readFileSync } from 'node:fs'
import config from '@marketplace/eslint-config'

// Feature boundaries (bulletproof-react's rule, with ESLint's own no-restricted-imports: the
// workspace has no eslint-plugin-import). src/test/architecture.test.ts checks the same list
// on the resolved import graph, with jest.mock paths and cycles.
const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
const { exceptions } = JSON.parse(
  readFileSync(new URL('./src/features/boundaries.json', import.meta.url), 'utf8'),
)
// Setting the rule again replaces its options, so the shared config's patterns come along
// (as objects: the rule takes strings or objects, not both).
const sharedPatterns = config
  .flatMap((entry) => entry.rules?.['no-restricted-imports']?.[1]?.patterns ?? [])
  .map((pattern) => (typeof pattern === 'string' ? { group: [pattern] } : pattern))
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const climbing = {
  regex: '^\\.\\./',
  message: "Import from another folder through '@/...', so the boundary rules can see it.",
}

function featureBoundary(feature) {
  const allowed = [
    `${escape(feature)}/`,
    ...exceptions
      .filter((exception) => exception.from === feature)
      .map((exception) => `${escape(exception.to)}$`),
  ]
  return {
    files: [`src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...sharedPatterns,
            {
              regex: `^@/features/(?!${allowed.join('|')})`,
              message: `The ${feature} feature may use its own folder and the shared layer (app, components/ui, hooks, lib, config), not another feature: share through them, or add a reasoned exception to src/features/boundaries.json.`,
            },
            climbing,
          ],
        },
      ],
    },
  }
}

export default [
  ...config,
  { ignores: ['dist/**'] },
  {
    files: ['src/**/*.{ts,tsx}'],
    // The browser has no process.env; configuration comes from /app-config.json (config/env.ts).
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // The HTTP contracts are TypeBox schemas: the web takes their types only, so no schema
    // code reaches the bundle (the home route's size budget, docs/benchmarks.md).
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@marketplace/contracts/api',
              message: "Import the contracts' types only: `import type { ... }`.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  ...features.map(featureBoundary),
  {
    // The shared layer knows no feature and not the app that composes them.
    files: ['src/{components,hooks,lib,config}/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...sharedPatterns,
            {
              regex: '^@/(features|app)/',
              message:
                'components/ui, hooks, lib and config are shared by every feature: they import no feature and not app/.',
            },
            climbing,
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { module: 'writable', require: 'readonly', URL: 'readonly', globalThis: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
]
