// Fails when docs/*.md or README.md names a file of the repository that does not exist (a
// path like services/auth/src/app.ts, a glob like src/stats/*, a link to another doc).
// See doc-paths.mjs for what counts as a path and where it is looked for. Run by this
// package's lint task.
import { globSync, readFileSync } from 'node:fs'
import { dirname, posix } from 'node:path'
import { repoRoot, trackedFiles } from './repo-files.mjs'
import { candidatesFor, isCheckedPath, pathsNamedIn } from './doc-paths.mjs'

const files = trackedFiles()
const existing = new Set(files)
for (const file of files) {
  for (let dir = dirname(file); dir !== '.'; dir = dirname(dir)) existing.add(dir)
}
const packages = files
  .filter((file) => /^(apps|services|packages|tooling|tests)\/[^/]+\/package\.json$/.test(file))
  .map((file) => dirname(file))
  .concat(['infra/local', 'infra/k8s', 'infra/compose', 'infra/images'])

/** A path exists when git tracks it (or a folder of it); a glob when it matches a tracked file. */
function exists(path) {
  const normal = posix.normalize(path).replace(/\/$/, '')
  if (!normal.includes('*')) return existing.has(normal)
  return globSync(normal, { cwd: repoRoot }).some((match) => existing.has(match))
}

const docs = files.filter((file) => /^docs\/[^/]+\.md$/.test(file) || file === 'README.md')
const problems = []
for (const doc of docs) {
  const docText = readFileSync(`${repoRoot}/${doc}`, 'utf8')
  const docFolder = dirname(doc) === '.' ? '' : dirname(doc)
  for (const { line, path } of pathsNamedIn(docText)) {
    if (!isCheckedPath(path)) continue
    const candidates = candidatesFor(path, { docFolder, docText, packages })
    if (!candidates.some(exists)) problems.push(`${doc}:${line}: ${path}`)
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'))
  console.error(`\n${problems.length} path(s) in the docs name no file of the repository.`)
  process.exit(1)
}
console.log(`doc paths: every file the ${docs.length} docs name exists`)
