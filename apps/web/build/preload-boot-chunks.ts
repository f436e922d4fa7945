import type { Plugin } from 'vite'

/**
 * `<link rel="modulepreload">` in index.html for a dynamically imported module, the chunks
 * it imports statically, and its own dynamic imports with theirs: main.tsx imports boot.tsx, the app, dynamically
 * (after the first paint when the gateway put posts into the page, which then drops these
 * links); for every other page these fetch it with the HTML, as if it were the entry's own,
 * so the dynamic import costs no round trip. (Vite preloads a dynamic import's chunks only
 * when the import runs.)
 */
export function preloadBootChunks(moduleSuffix = '/src/boot.tsx'): Plugin {
  return {
    name: 'marketplace:preload-boot-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, context) {
        const bundle = context.bundle
        if (!bundle) return html
        const chunks = Object.values(bundle).flatMap((output) =>
          output.type === 'chunk' ? [output] : [],
        )
        const boot = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(moduleSuffix))
        if (!boot) throw new Error(`preload-boot-chunks: no chunk for ${moduleSuffix}`)
        const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
        const files: string[] = []
        const visit = (file: string) => {
          if (files.includes(file)) return
          files.push(file)
          for (const imported of byFile.get(file)?.imports ?? []) visit(imported)
        }
        visit(boot.fileName)
        // boot.tsx imports its steps (the store, the router, React DOM, the app) dynamically,
        // one task each: they are part of the start, preloaded as its static imports are.
        for (const step of boot.dynamicImports) visit(step)
        const missing = (file: string) => !html.includes(`/${file}"`)
        // Its styles (the shell's, the components') block the first paint as the entry's do:
        // the page never paints unstyled, and the import finds them loaded.
        const styles = files.flatMap((file) => [
          ...(byFile.get(file)?.viteMetadata?.importedCss ?? []),
        ])
        return [
          ...styles.filter(missing).map((file) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
          // Low priority: the page's stylesheets, which its outline waits for, go first, and
          // the scripts after them, on the same connection, still long before the app could
          // ask for them. Scripts at the default (high) priority share a slow link with the
          // stylesheets and hold the outline's first paint back (first contentful
          // paint: Lighthouse counts every high-priority script loaded before the paint as
          // blocking it).
          ...files.filter(missing).map((file) => ({
            tag: 'link',
            attrs: {
              rel: 'modulepreload',
              crossorigin: true,
              href: `/${file}`,
              fetchpriority: 'low',
            },
            injectTo: 'head' as const,
          })),
        ]
      },
    },
  }
}
