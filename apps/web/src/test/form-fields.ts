import ts from 'typescript'

/**
 * Whether a source builds a form field's box by hand: a string of classes with `field` in it.
 * Every labelled field goes through components/ui/FormField, which alone writes that class.
 */
export function buildsFieldByHand(fileName: string, text: string): boolean {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true)
  let found = false
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      if (node.text.split(/\s+/).includes('field')) found = true
    }
    if (!found) ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}
