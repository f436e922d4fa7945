/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import boundaries from '@/features/boundaries.json'
import { exportsComponent, namingProblem } from '@/test/file-naming'
import { buildsFieldByHand } from '@/test/form-fields'
import {
  crossFeatureImports,
  featureCycles,
  fileCycles,
  readImportGraph,
  type CrossFeatureImport,
} from '@/test/import-graph'
import { looksLikeTestSupport } from '@/test/test-support'

// The web app's shape (docs/web-app.md "Boundaries"), checked on the import graph the
// TypeScript parser reads: static imports, re-exports, import() and jest.mock paths alike.
const srcDir = path.resolve(__dirname, '..')
const { files, edges } = readImportGraph(srcDir)
const textOf = (file: string) => readFileSync(path.join(srcDir, file), 'utf8')
const isTest = (file: string) => /\.test\.tsx?$/.test(file)

const allows = (exception: { from: string; to: string }, edge: CrossFeatureImport) =>
  exception.from === edge.fromFeature &&
  edge.to.replace(/\.tsx?$/, '') === `features/${exception.to}`

describe('the web app’s architecture', () => {
  it('a feature imports its own folder and the shared layer, or a listed exception', () => {
    const forbidden = crossFeatureImports(edges)
      .filter((edge) => !boundaries.exceptions.some((exception) => allows(exception, edge)))
      .map((edge) => `${edge.from} -> ${edge.to}`)
    expect(forbidden).toEqual([])
  })

  it('every listed exception is still used, and says why', () => {
    const cross = crossFeatureImports(edges)
    const unused = boundaries.exceptions
      .filter((exception) => !cross.some((edge) => allows(exception, edge)))
      .map((exception) => `${exception.from} -> ${exception.to}`)
    expect(unused).toEqual([])
    for (const exception of boundaries.exceptions) expect(exception.why.length).toBeGreaterThan(20)
  })

  it('the shared layer imports no feature and not the app that composes them', () => {
    const shared = /^(components|hooks|lib|config)\//
    const upward = edges
      .filter((edge) => shared.test(edge.from) && !isTest(edge.from))
      .filter((edge) => /^(features|app)\//.test(edge.to))
      .map((edge) => `${edge.from} -> ${edge.to}`)
    expect(upward).toEqual([])
  })

  it('has no import cycle, between files or between features, type-only imports included', () => {
    const everyImport = edges.map((edge) => ({ ...edge, typeOnly: false }))
    expect(fileCycles(files, everyImport)).toEqual([])
    expect(featureCycles(edges)).toEqual([])
  })

  it('names a component’s file in PascalCase and a hook’s or module’s in kebab-case', () => {
    const misnamed = files.filter(
      (file) =>
        namingProblem(file, file.endsWith('.tsx') && exportsComponent(file, textOf(file))) !== null,
    )
    expect(misnamed).toEqual([])
  })

  it('keeps test helpers and fakes under src/test', () => {
    const stray = files.filter(
      (file) => !file.startsWith('test/') && looksLikeTestSupport(file, textOf(file)),
    )
    expect(stray).toEqual([])
  })

  it('builds every labelled form field with components/ui/FormField', () => {
    const byHand = files.filter(
      (file) =>
        file.endsWith('.tsx') &&
        !isTest(file) &&
        file !== 'components/ui/FormField.tsx' &&
        buildsFieldByHand(file, textOf(file)),
    )
    expect(byHand).toEqual([])
  })
})
