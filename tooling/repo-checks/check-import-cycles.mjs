// Fails when a workspace package's own modules import each other in a circle (a.ts imports
// b.ts, which imports a.ts, directly or through others). A cycle makes the load order decide
// what is undefined at start-up, and means two files share one job; the fix is to move what
// both need into a module of its own. madge (the tool most projects use for this) builds the
// graph, type-only imports included: a cycle of types still ties the two files together.
// Run by this package's lint task.
import { existsSync } from 'node:fs'
import madge from 'madge'
import { repoRoot, trackedFiles } from './repo-files.mjs'

const packages = trackedFiles()
  .filter((file) => /^(apps|services|packages|tests)\/[^/]+\/package\.json$/.test(file))
  .map((file) => file.slice(0, -'/package.json'.length))
  .filter((pkg) => existsSync(`${repoRoot}/${pkg}/src`))

const problems = []
for (const pkg of packages) {
  const tsConfig = existsSync(`${repoRoot}/${pkg}/tsconfig.json`)
    ? `${repoRoot}/${pkg}/tsconfig.json`
    : undefined
  const graph = await madge(`${repoRoot}/${pkg}/src`, {
    fileExtensions: ['ts', 'tsx', 'mts', 'js', 'mjs'],
    excludeRegExp: [/\.d\.ts$/],
    tsConfig,
  })
  for (const cycle of graph.circular())
    problems.push(`${pkg}/src: ${[...cycle, cycle[0]].join(' -> ')}`)
}

if (problems.length > 0) {
  console.error(problems.join('\n'))
  console.error(`\n${problems.length} import cycle(s).`)
  process.exit(1)
}
console.log(`import cycles: none in the ${packages.length} packages`)
