// What check-doc-paths.mjs looks for, apart from the file walking so it can be tested.
//
// The docs name files as paths ("services/auth/src/sessions/sessions-service.ts",
// "src/routes/*", "[posts](posts.md)"). When code moves, such a path goes stale and sends a
// newcomer looking for a file that is not there; this finds them.

const EXTENSIONS = 'ts|tsx|mts|mjs|cjs|js|jsx|json|sh|ya?ml|md|css|html|py|conf|env|txt|toml|patch'
/** A path with at least one slash and a known extension, or ending with "/" or "/*". */
const PATH = new RegExp(
  String.raw`(?<![\w/.:@-])((?:\.{1,2}/)?[\w@.-]+(?:/[\w@.*{}-]+)*?(?:\.(?:${EXTENSIONS})|/\*?|/[\w@.-]+\.(?:${EXTENSIONS})))(?![\w/-])`,
  'g',
)
/** A markdown link's target: `[text](target)` or `[text](target "title")`. */
const LINK = /\]\(([^)\s#]+)(?:#[^)\s]*)?(?:\s+"[^"]*")?\)/g

/**
 * The paths a markdown text names, with their line: link targets (not web addresses), and
 * path-like words with a slash inside backticks or in the prose. A word inside a web address,
 * an API route ("/api/jobs") or a code block's command line is not a file path.
 */
export function pathsNamedIn(markdown) {
  const found = []
  let inFence = false
  markdown.split('\n').forEach((line, index) => {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence
      return
    }
    const seen = new Set()
    const add = (path) => {
      if (seen.has(path)) return
      seen.add(path)
      found.push({ line: index + 1, path })
    }
    for (const match of line.matchAll(LINK)) {
      const target = match[1]
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue // http:, https:, mailto:
      add(decodeURI(target))
    }
    const prose = line.replace(LINK, '](link)').replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, ' ')
    for (const match of prose.matchAll(PATH)) {
      const path = match[1]
      if (!path.includes('/')) continue
      if (path.startsWith('/')) continue // an address of the product, not a file
      if (path.startsWith('...')) continue // an elided prefix: ".../userImages/*"
      if (inFence && !/\.[a-z]+$/.test(path)) continue
      add(path)
    }
  })
  return found
}

/** Names that are not files of the repository: npm scopes, build output, local data. */
const NOT_REPOSITORY_FILES = /^(?:@|dist\/|\.data\/|node_modules\/)/

/**
 * Whether the check applies: a path to a file (it has an extension) or a glob ("src/stats/*").
 * A bare directory ("base/", "jobImages/") is as often a storage prefix or a runtime folder
 * as a directory of the repository, so it is left alone.
 */
export function isCheckedPath(path) {
  return !NOT_REPOSITORY_FILES.test(path) && (/\.[a-z]+$/i.test(path) || path.endsWith('*'))
}

/**
 * Where a path named in a doc may be, in order: from the repository's root, from the doc's
 * folder (links between docs), and, because the docs shorten paths inside a package, from a
 * workspace package the doc names (by its folder, "services/media", or by its name as a
 * word, "the gateway"): the package's folder or its src/. "service-kit/create-app.ts" is
 * also read as that package's src/create-app.ts.
 */
export function candidatesFor(path, { docFolder, docText, packages }) {
  const candidates = [path, docFolder ? `${docFolder}/${path}` : path]
  const [first, ...rest] = path.split('/')
  for (const pkg of packages) {
    const name = pkg.slice(pkg.lastIndexOf('/') + 1)
    const named =
      docText.includes(pkg) || new RegExp(`\\b${name.replace(/[-.]/g, '\\$&')}\\b`).test(docText)
    if (named) candidates.push(`${pkg}/${path}`, `${pkg}/src/${path}`)
    if (first === name && rest.length > 0)
      candidates.push(`${pkg}/${rest.join('/')}`, `${pkg}/src/${rest.join('/')}`)
  }
  return candidates
}
