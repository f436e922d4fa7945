// Prints the web app's architecture figures: cross-feature imports per pair (and those outside
// src/features/boundaries.json), import cycles, file names off the naming rule, test helpers
// outside src/test and the largest files. `pnpm architecture` in apps/web (Node 24 runs the
// TypeScript as it is); `--files` lists each cross-feature import.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import {
  crossFeatureImports,
  featureCycles,
  featureOf,
  fileCycles,
  readImportGraph,
} from '../src/test/import-graph.ts'
import { exportsComponent, namingProblem } from '../src/test/file-naming.ts'
import { looksLikeTestSupport } from '../src/test/test-support.ts'

const srcDir = path.resolve(import.meta.dirname, '../src')
const { files, edges } = readImportGraph(srcDir)

const features = new Set(files.map(featureOf).filter((name): name is string => !!name))
const cross = crossFeatureImports(edges)
const pairs = new Map<string, number>()
for (const edge of cross) {
  const key = `${edge.fromFeature} -> ${edge.toFeature}`
  pairs.set(key, (pairs.get(key) ?? 0) + 1)
}
const importing = new Set(cross.map((edge) => edge.fromFeature))

console.log(`features: ${features.size} (${[...features].sort().join(', ')})`)
console.log(`features importing another feature: ${importing.size}`)
console.log(`cross-feature imports: ${cross.length}`)
for (const [pair, count] of [...pairs].sort()) console.log(`  ${pair}: ${count}`)
if (process.argv.includes('--files')) {
  for (const edge of cross) console.log(`    ${edge.from} -> ${edge.to}`)
}

const { exceptions } = JSON.parse(
  readFileSync(path.join(srcDir, 'features/boundaries.json'), 'utf8'),
) as { exceptions: { from: string; to: string }[] }
const outside = cross.filter(
  (edge) =>
    !exceptions.some(
      (exception) =>
        exception.from === edge.fromFeature &&
        edge.to.replace(/\.tsx?$/, '') === `features/${exception.to}`,
    ),
)
console.log(`cross-feature imports outside the exception list: ${outside.length}`)
for (const edge of outside) console.log(`  ${edge.from} -> ${edge.to}`)

const cycles = fileCycles(files, edges)
const typeCycles = fileCycles(
  files,
  edges.map((edge) => ({ ...edge, typeOnly: false })),
)
console.log(`file import cycles (value imports): ${cycles.length}`)
for (const group of cycles) console.log(`  ${group.join(' <-> ')}`)
console.log(`file import cycles counting type-only imports: ${typeCycles.length}`)
for (const group of typeCycles) console.log(`  ${group.join(' <-> ')}`)
const between = featureCycles(edges)
console.log(`feature cycles: ${between.length}`)
for (const group of between) console.log(`  ${group.join(' <-> ')}`)

const misnamed = files.flatMap((file) => {
  const text = readFileSync(path.join(srcDir, file), 'utf8')
  const problem = namingProblem(file, file.endsWith('.tsx') && exportsComponent(file, text))
  return problem ? [`${file}: ${problem}`] : []
})
console.log(`files off the naming rule: ${misnamed.length}`)
for (const line of misnamed) console.log(`  ${line}`)

const strayTestSupport = files.filter(
  (file) =>
    !file.startsWith('test/') &&
    looksLikeTestSupport(file, readFileSync(path.join(srcDir, file), 'utf8')),
)
console.log(`test helpers and fakes outside src/test: ${strayTestSupport.length}`)
for (const file of strayTestSupport) console.log(`  ${file}`)

const sizes = files
  .filter((file) => !/\.test\.tsx?$/.test(file))
  .map((file) => ({
    file,
    lines: readFileSync(path.join(srcDir, file), 'utf8').split('\n').length,
  }))
  .sort((a, b) => b.lines - a.lines)
console.log('largest source files (lines):')
for (const { file, lines } of sizes.slice(0, 12)) console.log(`  ${lines} ${file}`)
