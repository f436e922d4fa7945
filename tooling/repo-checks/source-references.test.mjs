import assert from 'node:assert/strict'
import { test } from 'node:test'
import { findReferences, isSourceFile } from './source-references.mjs'

const referencesIn = (text) => findReferences(text).map((found) => found.reference)

test('finds the tags that point at documents outside the repository', () => {
  assert.deepEqual(referencesIn('/** The thread (issue 17 §5): the list. */'), ['issue 17', '§5'])
  assert.deepEqual(referencesIn("describe('passwordsMatch (spec 1 §5)', () => {"), ['spec 1', '§5'])
  assert.deepEqual(referencesIn('  // Spec 2 §2.11: the texts'), ['Spec 2', '§2'])
  assert.deepEqual(referencesIn('# Who may talk to whom (issue 18 §10).'), ['issue 18', '§1'])
  assert.deepEqual(referencesIn('the journeys (issues 8 and 9)'), ['issues 8'])
  assert.deepEqual(referencesIn("spec 1's own example"), ['spec 1'])
  assert.deepEqual(referencesIn(' * (§6: a guest reads "Please log in")'), ['§6'])
})

test('reports the line of each one', () => {
  const found = findReferences('const a = 1\n// issue 22: the first paint\nconst b = 2')
  assert.deepEqual(
    found.map(({ line, reference }) => ({ line, reference })),
    [{ line: 2, reference: 'issue 22' }],
  )
})

test('leaves public references and plain words alone', () => {
  assert.deepEqual(
    referencesIn(' * Refresh sessions (RFC 9700 §4.14.2): a login opens a family'),
    [],
  )
  assert.deepEqual(referencesIn('/** RFC 8291 §3.1: a P-256 point; §3.2: a 16-byte secret. */'), [])
  assert.deepEqual(referencesIn('// no restart, no fetch (kafkajs issues #267, #659)'), [])
  assert.deepEqual(referencesIn('// the spec says nothing; issues of the queue are retried'), [])
  assert.deepEqual(referencesIn("expect(pictographsIn('2 × 16 px ’§')).toEqual([])"), [])
})

test('checks every file but documentation and the lockfile', () => {
  assert.equal(isSourceFile('services/auth/src/sessions/sessions-service.ts'), true)
  assert.equal(isSourceFile('infra/k8s/base/network-policies.yaml'), true)
  assert.equal(isSourceFile('infra/images/gateway/Dockerfile'), true)
  assert.equal(isSourceFile('scripts/test.sh'), true)
  assert.equal(isSourceFile('docs/benchmarks.md'), false)
  assert.equal(isSourceFile('README.md'), false)
  assert.equal(isSourceFile('pnpm-lock.yaml'), false)
})
