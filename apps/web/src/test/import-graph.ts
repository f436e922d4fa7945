import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

/**
 * The import graph of the web app's sources, read with the TypeScript parser: what the
 * feature-boundary test checks and what `scripts/import-report.ts` prints. Paths are
 * relative to src/ with forward slashes ('features/feed/HomePage.tsx').
 */
export interface ImportEdge {
  from: string
  to: string
  /** `import type` and `export type`: erased at build time, so never a load-order cycle. */
  typeOnly: boolean
}

const SOURCE = /\.(ts|tsx)$/
const RESOLVABLE = ['', '.ts', '.tsx', '/index.ts', '/index.tsx']

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return listSources(full)
    return SOURCE.test(name) ? [full] : []
  })
}

/** `@/x` and relative specifiers resolved to a file under src/; packages give null. */
function resolveSpecifier(srcDir: string, fromFile: string, specifier: string): string | null {
  let base: string
  if (specifier.startsWith('@/')) base = path.join(srcDir, specifier.slice(2))
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(fromFile), specifier)
  else return null
  for (const suffix of RESOLVABLE) {
    const candidate = base + suffix
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return null
}

interface Specifier {
  text: string
  typeOnly: boolean
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause
  if (!clause) return false // `import './x.css'` runs the module
  if (clause.isTypeOnly) return true
  if (clause.name) return false
  const bindings = clause.namedBindings
  return (
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  )
}

/** Static imports and re-exports, `import()`, and the module paths jest.mock/requireActual name. */
function specifiersOf(file: string): Specifier[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: Specifier[] = []
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ text: node.moduleSpecifier.text, typeOnly: isTypeOnlyImport(node) })
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.push({ text: node.moduleSpecifier.text, typeOnly: node.isTypeOnly })
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const [first] = node.arguments
      const callee = node.expression.getText(source)
      const named =
        node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        /^jest\.(mock|requireActual|doMock)$/.test(callee)
      if (named && first && ts.isStringLiteralLike(first)) {
        found.push({ text: first.text, typeOnly: false })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const relativeTo = (srcDir: string, file: string) =>
  path.relative(srcDir, file).split(path.sep).join('/')

export function readImportGraph(srcDir: string): { files: string[]; edges: ImportEdge[] } {
  const sources = listSources(srcDir)
  const edges: ImportEdge[] = []
  for (const file of sources) {
    for (const specifier of specifiersOf(file)) {
      const target = resolveSpecifier(srcDir, file, specifier.text)
      if (!target) continue
      edges.push({
        from: relativeTo(srcDir, file),
        to: relativeTo(srcDir, target),
        typeOnly: specifier.typeOnly,
      })
    }
  }
  return { files: sources.map((file) => relativeTo(srcDir, file)), edges }
}

/** 'features/feed/HomePage.tsx' → 'feed'; anything outside src/features → null. */
export function featureOf(file: string): string | null {
  const match = /^features\/([^/]+)\//.exec(file)
  return match?.[1] ?? null
}

export interface CrossFeatureImport extends ImportEdge {
  fromFeature: string
  toFeature: string
}

export function crossFeatureImports(edges: readonly ImportEdge[]): CrossFeatureImport[] {
  return edges.flatMap((edge) => {
    const fromFeature = featureOf(edge.from)
    const toFeature = featureOf(edge.to)
    return fromFeature && toFeature && fromFeature !== toFeature
      ? [{ ...edge, fromFeature, toFeature }]
      : []
  })
}

/**
 * Strongly connected groups of more than one node (or a node importing itself), by
 * Tarjan's algorithm: every cycle lies inside one of them.
 */
export function stronglyConnected(
  nodes: Iterable<string>,
  edges: readonly { from: string; to: string }[],
): string[][] {
  const next = new Map<string, string[]>()
  for (const node of nodes) next.set(node, [])
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, [])
    if (!next.has(to)) next.set(to, [])
    next.get(from)!.push(to)
  }
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: string[] = []
  const groups: string[][] = []
  let counter = 0

  const connect = (node: string) => {
    index.set(node, counter)
    low.set(node, counter)
    counter += 1
    stack.push(node)
    onStack.add(node)
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        connect(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!))
      }
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = []
      let member: string | undefined
      do {
        member = stack.pop()!
        onStack.delete(member)
        group.push(member)
      } while (member !== node)
      const selfLoop = (next.get(node) ?? []).includes(node)
      if (group.length > 1 || selfLoop) groups.push(group.sort())
    }
  }

  for (const node of next.keys()) if (!index.has(node)) connect(node)
  return groups
}

/** Import cycles between files, type-only imports left out (they vanish at build time). */
export function fileCycles(files: readonly string[], edges: readonly ImportEdge[]): string[][] {
  return stronglyConnected(
    files,
    edges.filter((edge) => !edge.typeOnly),
  )
}

/** Cycles between features through any import, type-only ones included. */
export function featureCycles(edges: readonly ImportEdge[]): string[][] {
  const pairs = crossFeatureImports(edges).map(({ fromFeature, toFeature }) => ({
    from: fromFeature,
    to: toFeature,
  }))
  return stronglyConnected([], pairs)
}
