import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

// Two modules that import each other (even for types only) cannot be read, tested or moved
// one without the other, and a runtime cycle hands one of them the other's exports half
// loaded. The TypeScript compiler's own import scanner lists what each file of src/ imports;
// the test fails on any cycle among them, naming its files.
const SRC = resolve(__dirname)

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : []
  })
}

function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
  return importedFiles
    .map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier))
    .map((base) =>
      [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate)),
    )
    .filter((path): path is string => path !== undefined)
}

function cyclesIn(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = []
  const state = new Map<string, 'visiting' | 'done'>()
  const stack: string[] = []
  const visit = (file: string) => {
    state.set(file, 'visiting')
    stack.push(file)
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'visiting') cycles.push([...stack.slice(stack.indexOf(next)), next])
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of graph.keys()) if (!state.has(file)) visit(file)
  return cycles
}

describe('the auth service’s modules', () => {
  it('import one another without cycles', () => {
    const files = sourceFiles(SRC).filter((file) => !file.includes(`${join(SRC, 'test')}`))
    const graph = new Map(files.map((file) => [file, importsOf(file)]))
    expect(graph.size).toBeGreaterThan(20)

    const cycles = cyclesIn(graph).map((cycle) => cycle.map((file) => relative(SRC, file)))
    expect(cycles).toEqual([])
  })

  it('the check finds a cycle when there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
    ])
    expect(cyclesIn(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  })
})
