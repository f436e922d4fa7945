import assert from 'node:assert/strict'
import { test } from 'node:test'
import { candidatesFor, isCheckedPath, pathsNamedIn } from './doc-paths.mjs'

const named = (markdown) => pathsNamedIn(markdown).map((found) => found.path)

test('finds paths in backticks, in prose and as link targets', () => {
  assert.deepEqual(named('The routes (`src/routes/*`) and services/auth/src/app.ts.'), [
    'src/routes/*',
    'services/auth/src/app.ts',
  ])
  assert.deepEqual(
    named('See [posts](posts.md#feed) and [the kit](../packages/service-kit/README.md).'),
    ['posts.md', '../packages/service-kit/README.md'],
  )
})

test('leaves web addresses, API routes and plain words alone', () => {
  assert.deepEqual(named('Read https://github.com/tulios/kafkajs/blob/master/src/index.js'), [])
  assert.deepEqual(named('GET /api/jobs/categories answers 200; and/or; 1/2'), [])
  assert.deepEqual(named('[the docs](https://example.com/a/b.md)'), [])
})

test('reports the line of each path', () => {
  assert.deepEqual(pathsNamedIn('# Title\n\nIn `scripts/test.sh`.'), [
    { line: 3, path: 'scripts/test.sh' },
  ])
})

test('checks files and globs, not folders, npm scopes or build output', () => {
  assert.equal(isCheckedPath('src/stats/*'), true)
  assert.equal(isCheckedPath('infra/k8s/base/kustomization.yaml'), true)
  assert.equal(isCheckedPath('jobImages/'), false)
  assert.equal(isCheckedPath('@img/*'), false)
  assert.equal(isCheckedPath('dist/server.js'), false)
})

test('looks in the packages the doc names, and reads a package-name prefix as its src/', () => {
  const packages = ['services/media', 'packages/service-kit']
  const forMedia = candidatesFor('src/uploads/upload-slot.ts', {
    docFolder: 'docs',
    docText: 'The media service (services/media) signs uploads.',
    packages,
  })
  assert.ok(forMedia.includes('services/media/src/uploads/upload-slot.ts'))
  assert.ok(!forMedia.some((path) => path.startsWith('packages/service-kit')))
  const shorthand = candidatesFor('service-kit/create-app.ts', {
    docFolder: 'docs',
    docText: '',
    packages,
  })
  assert.ok(shorthand.includes('packages/service-kit/src/create-app.ts'))
})
