import { readFile } from 'node:fs/promises'
import path from 'node:path'

/**
 * The modules the web app loads for / before its first render besides its own scripts (apps/web
 * boot.tsx: the home page, and the first feed page's seeding), by their source path in Vite's
 * manifest.
 */
export const HOME_MODULES = [
  'src/features/feed/HomePage.tsx',
  'src/features/feed/first-feed-page.ts',
]

interface ManifestChunk {
  file: string
  imports?: string[]
  css?: string[]
}

/**
 * `<link>`s that fetch the home page's chunks, their imports and their stylesheets with the
 * HTML of / (issue 22, largest contentful paint): without them the app asks for them only once
 * its own scripts have loaded and run, one round trip more before the feed renders. Low
 * priority, as index.html's own preloads (apps/web build/preload-boot-chunks): the outline's
 * stylesheets go first. Files index.html already names are left out. From the build's manifest
 * (`build.manifest`, `.vite/manifest.json`, not served: the static files skip dot folders);
 * none without one.
 */
export async function homePreloadLinks(webDistDir: string, indexHtml: string): Promise<string> {
  let manifest: Record<string, ManifestChunk>
  try {
    const file = path.join(webDistDir, '.vite', 'manifest.json')
    manifest = JSON.parse(await readFile(file, 'utf8')) as Record<string, ManifestChunk>
  } catch {
    return ''
  }
  const scripts: string[] = []
  const styles: string[] = []
  const visit = (key: string) => {
    const chunk = manifest[key]
    if (!chunk || scripts.includes(chunk.file)) return
    scripts.push(chunk.file)
    for (const css of chunk.css ?? []) if (!styles.includes(css)) styles.push(css)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  for (const key of HOME_MODULES) visit(key)
  const named = (file: string) => indexHtml.includes(`/${file}"`)
  return [
    ...styles
      .filter((file) => !named(file))
      .map(
        (file) => `<link rel="preload" as="style" crossorigin href="/${file}" fetchpriority="low">`,
      ),
    ...scripts
      .filter((file) => !named(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}" fetchpriority="low">`),
  ].join('\n')
}

/** index.html with those links at the end of its head. */
export function withHomePreloads(indexHtml: string, links: string): string {
  if (!links) return indexHtml
  const end = indexHtml.indexOf('</head>')
  return end < 0 ? indexHtml : `${indexHtml.slice(0, end)}${links}\n${indexHtml.slice(end)}`
}
