// What the home route makes a browser download before it can show the feed: the entry
// chunk, the app it starts after the first paint (src/boot.tsx and the steps it imports,
// preloaded by index.html), the
// home page's chunk and the first feed page's reader (loaded at once on /), everything they
// import statically,
// each counted once, gzip-compressed as the gateway's clients receive it over the wire.
// Also the entry's CSS. Reads apps/web/dist/.vite/manifest.json (vite build --manifest).
//
//   node scripts/bench/web-bundle-size.mjs            # prints the table
//   node scripts/bench/web-bundle-size.mjs --json     # machine-readable, for the budget test
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'

export const HOME_ROUTE_BUDGET_KB = 170

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

export function measureHomeRoute(dist = join(root, 'apps', 'web', 'dist')) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'))
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry)
  if (!entryKey) throw new Error('no entry chunk in the manifest')
  const files = new Map()
  const visit = (key) => {
    const chunk = manifest[key]
    if (!chunk || files.has(chunk.file)) return
    files.set(chunk.file, key)
    for (const css of chunk.css ?? []) files.set(css, `${key} (css)`)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  visit(entryKey)
  for (const suffix of [
    'src/boot.tsx',
    'features/feed/HomePage.tsx',
    'features/feed/first-feed-page.ts',
  ]) {
    const key = Object.keys(manifest).find((name) => name.endsWith(suffix))
    if (!key) throw new Error(`no chunk of ${suffix} in the manifest`)
    visit(key)
    // boot.tsx imports its steps (store, router, React DOM, the app) dynamically, one task
    // each, all preloaded with the HTML: they are part of what the home route downloads.
    if (suffix === 'src/boot.tsx')
      for (const step of manifest[key].dynamicImports ?? []) visit(step)
  }
  const rows = [...files].map(([file, source]) => {
    const bytes = readFileSync(join(dist, file))
    return { file, source, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }
  })
  const js = rows.filter((row) => row.file.endsWith('.js'))
  return {
    rows,
    jsGzipKB: js.reduce((sum, row) => sum + row.gzip, 0) / 1024,
    jsRawKB: js.reduce((sum, row) => sum + row.raw, 0) / 1024,
    budgetKB: HOME_ROUTE_BUDGET_KB,
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = measureHomeRoute()
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(result))
  } else {
    for (const row of result.rows)
      console.log(
        `${row.file.padEnd(48)} ${(row.raw / 1024).toFixed(1).padStart(8)} KB  ${(row.gzip / 1024).toFixed(1).padStart(7)} KB gzip`,
      )
    console.log(
      `home route initial JavaScript: ${result.jsRawKB.toFixed(1)} KB, ${result.jsGzipKB.toFixed(1)} KB gzip (budget ${result.budgetKB} KB gzip): ${result.jsGzipKB <= result.budgetKB ? 'within' : 'OVER'}`,
    )
  }
}
