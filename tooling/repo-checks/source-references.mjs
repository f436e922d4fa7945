// What check-source-references.mjs looks for, apart from the file walking so it can be tested.
//
// A comment such as "(spec 1 §7)" or "issue 19 §3: ..." points at a document that is not in
// the repository (the product's specification, a closed task): a newcomer cannot follow it.
// Comments and test names say the reason in words instead, or link a doc under docs/.
// RFC sections ("RFC 9700 §4.14.2") are public and stay allowed, and so do GitHub issues of
// other projects written with their "#" ("kafkajs issues #267").

/** "issue 17", "Issue 20 §3", "issues 8 and 9", "spec 1", "Spec 2 §2.11", "spec 1's". */
const NUMBERED_REFERENCE = /\b(?:issues?|specs?) \d+/gi
/** A bare section sign with a number ("(§6: ...)", "the cities of §9"), unless an RFC's. */
const SECTION_SIGN = /§\s?\d/g
/** An RFC named earlier on the line: its sections are public ("RFC 8291 §3.1: ...; §3.2: ..."). */
const RFC_BEFORE = /\bRFC \d+/

/** Source files are everything but documentation: docs may keep dated logs that name issues. */
export function isSourceFile(path) {
  if (/\.(md|markdown|txt)$/i.test(path)) return false
  if (/(^|\/)pnpm-lock\.yaml$/.test(path)) return false
  if (/\.(png|jpe?g|gif|webp|ico|woff2?|pdf|gz|br)$/i.test(path)) return false
  return true
}

/** Each reference in `text`, with its 1-based line and the line itself. */
export function findReferences(text) {
  const found = []
  const lines = text.split('\n')
  lines.forEach((line, index) => {
    for (const match of line.matchAll(NUMBERED_REFERENCE)) {
      found.push({ line: index + 1, reference: match[0], text: line.trim() })
    }
    for (const match of line.matchAll(SECTION_SIGN)) {
      if (RFC_BEFORE.test(line.slice(0, match.index))) continue
      found.push({ line: index + 1, reference: match[0], text: line.trim() })
    }
  })
  return found
}
