// Fails when a source file (code, tests, scripts, manifests: anything tracked but docs)
// refers to a document outside the repository, such as "spec 1 §7" or "issue 19 §3".
// See source-references.mjs for what counts and why. Run by this package's lint task.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { repoRoot, trackedFiles } from './repo-files.mjs'
import { findReferences, isSourceFile } from './source-references.mjs'

// This check's own files name the patterns they look for.
const OWN_FILES = new Set(
  ['check-source-references.mjs', 'source-references.mjs', 'source-references.test.mjs'].map(
    (file) => `tooling/repo-checks/${file}`,
  ),
)

const problems = []
for (const path of trackedFiles()) {
  if (!isSourceFile(path) || OWN_FILES.has(path)) continue
  let text
  try {
    text = readFileSync(join(repoRoot, path), 'utf8')
  } catch {
    continue // listed but gone from the work tree (deleted, not yet committed)
  }
  if (text.includes('\0')) continue // a binary file
  for (const found of findReferences(text))
    problems.push(`${path}:${found.line}: "${found.reference}" in: ${found.text}`)
}

if (problems.length > 0) {
  console.error(problems.join('\n'))
  console.error(
    `\n${problems.length} reference(s) to documents outside the repository. Say the reason in words, ` +
      'link a doc under docs/, or drop the tag when the sentence already says it.',
  )
  process.exit(1)
}
console.log('source references: none to documents outside the repository')
