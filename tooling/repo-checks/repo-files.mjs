// The repository's tracked files, read through git so that build output, dependencies and
// local data (all ignored by git) are never scanned.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** The repository's root, whatever directory the check runs from. */
export const repoRoot = execFileSync('git', ['rev-parse', '--show-toplevel'], {
  cwd: fileURLToPath(new URL('.', import.meta.url)),
  encoding: 'utf8',
}).trim()

/** Every tracked file (and every new file not ignored), as paths relative to the root. */
export function trackedFiles() {
  const out = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: repoRoot,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  )
  return [...new Set(out.split('\0').filter(Boolean))]
}
