import {
  CHUNKS_AFTER_FIRST_PAINT_ID,
  fetchChunks,
  readChunksAfterFirstPaint,
} from '@/lib/chunks-after-first-paint'

// The list as the gateway writes it (services/gateway routes/chunks-after-first-paint).
function pageWithList(text: string) {
  document.head.innerHTML = `<script type="application/json" id="${CHUNKS_AFTER_FIRST_PAINT_ID}">${text}</script>`
}

const linksInHead = () =>
  [...document.head.querySelectorAll('link')].map((link) => ({
    rel: link.rel,
    as: link.getAttribute('as'),
    href: link.getAttribute('href'),
    crossOrigin: link.crossOrigin,
  }))

afterEach(() => {
  document.head.innerHTML = ''
  jest.useRealTimers()
})

describe("the app's chunks after the first paint", () => {
  it("reads the gateway's list, keeping the build's own files only", () => {
    pageWithList(
      JSON.stringify([
        '/assets/boot-1.js',
        '/assets/AccountPage-1.css',
        'https://elsewhere.example/x.js',
        '/assets/../../api/users.js',
        42,
        '/assets/page.html',
      ]),
    )

    expect(readChunksAfterFirstPaint()).toEqual(['/assets/boot-1.js', '/assets/AccountPage-1.css'])
  })

  it('no list, or no list it can read: null (the page starts as before)', () => {
    expect(readChunksAfterFirstPaint()).toBeNull()
    pageWithList('{not json')
    expect(readChunksAfterFirstPaint()).toBeNull()
    pageWithList('{"files":[]}')
    expect(readChunksAfterFirstPaint()).toBeNull()
  })

  it('asks for scripts as module preloads and stylesheets as preloads, a few per task', async () => {
    jest.useFakeTimers()
    const files = Array.from({ length: 8 }, (_, i) => `/assets/chunk-${i}.js`)
    files.push('/assets/AccountPage-1.css')

    const done = fetchChunks(files)
    // The first task adds six; the rest wait for the next task.
    expect(linksInHead()).toHaveLength(6)
    await jest.runAllTimersAsync()
    await done

    expect(linksInHead()).toHaveLength(9)
    expect(linksInHead()[0]).toEqual({
      rel: 'modulepreload',
      as: null,
      href: '/assets/chunk-0.js',
      crossOrigin: '',
    })
    expect(linksInHead()[8]).toEqual({
      rel: 'preload',
      as: 'style',
      href: '/assets/AccountPage-1.css',
      crossOrigin: '',
    })
  })
})
