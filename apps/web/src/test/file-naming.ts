import ts from 'typescript'

/**
 * The web app's one rule for file names: a file that exports a React component is
 * PascalCase.tsx; a hook or any other module is kebab-case (.ts, or .tsx when it holds JSX
 * without exporting a component, like the router's table or a test helper that renders).
 * A test takes the name of what it tests. main.tsx is Vite's entry.
 */
const PASCAL = /^[A-Z][A-Za-z0-9]*$/
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/
/** A component's name: PascalCase, which tells it from a CONSTANT_NAME. */
const COMPONENT_NAME = /^[A-Z][a-z0-9]+[A-Za-z0-9]*$/
const ENTRIES = new Set(['main.tsx'])

/**
 * Whether a .tsx source exports a function or constant named like a component, or passes one
 * on (`export { EyeIcon } from ...`).
 */
export function exportsComponent(fileName: string, text: string): boolean {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false)
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) &&
    !!ts.getModifiers(node)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
  return source.statements.some((statement) => {
    if (ts.isFunctionDeclaration(statement) && exported(statement)) {
      return COMPONENT_NAME.test(statement.name?.text ?? '')
    }
    if (ts.isVariableStatement(statement) && exported(statement)) {
      return statement.declarationList.declarations.some(
        (declaration) =>
          ts.isIdentifier(declaration.name) && COMPONENT_NAME.test(declaration.name.text),
      )
    }
    if (ts.isExportDeclaration(statement) && !statement.isTypeOnly) {
      const clause = statement.exportClause
      return (
        !!clause &&
        ts.isNamedExports(clause) &&
        clause.elements.some(
          (element) => !element.isTypeOnly && COMPONENT_NAME.test(element.name.text),
        )
      )
    }
    return false
  })
}

/**
 * Why `file` (relative to src/, forward slashes) breaks the rule, or null when it keeps it.
 * `hasComponent` says whether the file exports a component (exportsComponent).
 */
export function namingProblem(file: string, hasComponent: boolean): string | null {
  if (ENTRIES.has(file)) return null
  const name = file.slice(file.lastIndexOf('/') + 1)
  const test = /^(.+)\.test\.(ts|tsx)$/.exec(name)
  if (test) {
    const subject = test[1] ?? ''
    return PASCAL.test(subject) || KEBAB.test(subject)
      ? null
      : 'a test is named after its component (PascalCase) or its module (kebab-case)'
  }
  const source = /^(.+)\.(ts|tsx)$/.exec(name)
  if (!source) return null
  const [, base = '', extension] = source
  if (extension === 'tsx' && hasComponent) {
    return PASCAL.test(base) ? null : 'a file that exports a component is PascalCase.tsx'
  }
  return KEBAB.test(base) ? null : 'a hook or module file is kebab-case'
}
