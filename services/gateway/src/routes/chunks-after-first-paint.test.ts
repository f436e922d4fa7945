import {
  CHUNKS_AFTER_FIRST_PAINT_ID,
  withChunksAfterFirstPaint,
  withoutModulePreloads,
} from './chunks-after-first-paint'

// A build's index.html head, as apps/web's Vite build writes it (shortened).
const INDEX_HTML = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-1.js"></script>
<link rel="stylesheet" crossorigin href="/assets/Layout-1.css">
<link rel="modulepreload" crossorigin href="/assets/boot-1.js" fetchpriority="low">
<link rel="modulepreload" crossorigin href="/assets/react-1.js" fetchpriority="low">
</head><body><div id="root"></div></body></html>`

const listIn = (html: string) => {
  const match = new RegExp(
    `<script type="application/json" id="${CHUNKS_AFTER_FIRST_PAINT_ID}">(.*?)</script>`,
  ).exec(html)
  return match ? (JSON.parse(match[1]!) as string[]) : null
}

describe("the app's chunks after the first paint", () => {
  it('moves the module preloads into the list, then the page files, once each, in the head', () => {
    const html = withChunksAfterFirstPaint(INDEX_HTML, [
      '/assets/AccountPage-1.css',
      '/assets/react-1.js',
      '/assets/AccountPage-1.js',
    ])

    expect(html).not.toContain('modulepreload')
    expect(listIn(html)).toEqual([
      '/assets/boot-1.js',
      '/assets/react-1.js',
      '/assets/AccountPage-1.css',
      '/assets/AccountPage-1.js',
    ])
    expect(html.indexOf(CHUNKS_AFTER_FIRST_PAINT_ID)).toBeLessThan(html.indexOf('</head>'))
    // What paints first stays: the entry script and the stylesheets.
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>')
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/Layout-1.css">')
  })

  it('writes no `<` a file name could carry into the script element', () => {
    const html = withChunksAfterFirstPaint(INDEX_HTML, ['/assets/x</script><b>.js'])

    expect(html).not.toContain('</script><b>')
    expect(listIn(html)).toContain('/assets/x</script><b>.js')
  })

  it('nothing to list: no list', () => {
    const bare = INDEX_HTML.replace(/<link rel="modulepreload"[^>]*>\n/g, '')

    expect(withChunksAfterFirstPaint(bare, [])).toBe(bare)
  })

  it('the feed only drops the preloads', () => {
    const html = withoutModulePreloads(INDEX_HTML)

    expect(html).not.toContain('modulepreload')
    expect(listIn(html)).toBeNull()
    expect(html).toContain('/assets/index-1.js')
  })
})
