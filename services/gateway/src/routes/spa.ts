import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fastifyStatic from '@fastify/static'
import { allowInlineScripts, inlineScriptHashes } from '../lib/inline-script-hashes'
import { REFRESH_COOKIE } from '../upstreams'
import { fetchFirstFeedPage, withFirstFeedPage, withPublicCards } from './first-feed-page'
import { withChunksAfterFirstPaint } from './chunks-after-first-paint'
import { readRoutePages, withPageHeading, withPreloads, type RoutePage } from './route-preloads'

export interface SpaRoutesOptions {
  /** Absolute path of the web app's build (`apps/web/dist`). */
  webDistDir: string
  /** Where pictures are read from (the public bucket URL), for the first feed page's cards. */
  publicBucketUrl: string
}

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000

// Vite names everything under /assets/ by content hash, so a name never changes meaning.
const HASHED_ASSETS = '/assets/'

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Marketplace</title></head>
<body>
<h1>The web app is not built yet</h1>
<p>The gateway is running, but it found no built web app to serve.</p>
<p>Build it with <code>pnpm --filter @marketplace/web build</code> (or <code>pnpm build</code> at the repository root), then reload this page.</p>
</body>
</html>
`

/**
 * The built SPA. Files are served from the dist directory; any other GET from a browser
 * navigation (Accept: text/html) gets index.html so client routes (/login, /settings-account)
 * load the app. /api and /socket.io never fall back to HTML: an unknown API path is a 404 in
 * the JSON error shape, and a missing asset is a 404 rather than HTML parsed as a script.
 */
export async function spaRoutes(app: FastifyInstance, options: SpaRoutesOptions) {
  const root = path.resolve(options.webDistDir)
  const indexFile = path.join(root, 'index.html')

  await app.register(fastifyStatic, {
    root,
    serve: false,
    dotfiles: 'ignore',
    // The build writes .br and .gz beside each text file (apps/web/build/precompress-assets):
    // the best one the browser accepts is sent, with Content-Encoding and Vary: Accept-Encoding.
    preCompressed: true,
    suppressWarning: true,
  })

  if (!(await isFile(indexFile))) {
    app.log.warn({ webDistDir: root }, 'web app not built; client routes answer a placeholder page')
  }

  // What index.html's answers need, read again when a new build replaces the file: the
  // hashes of its inline script (the session's renewal, started with the HTML: apps/web
  // index.html), allowed by the policy on these answers only; and, per address, the page's
  // chunks and stylesheets, and its heading (and first section) where it is fixed text
  // (routes/route-preloads).
  const noIndex = () => ({
    mtimeMs: -1,
    html: '',
    hashes: [] as string[],
    pages: new Map<string, RoutePage>(),
  })
  let index = noIndex()
  async function currentIndex(): Promise<typeof index> {
    try {
      const { mtimeMs } = await stat(indexFile)
      if (mtimeMs !== index.mtimeMs) {
        const html = await readFile(indexFile, 'utf8')
        const pages = await readRoutePages(root, html)
        index = { mtimeMs, html, hashes: inlineScriptHashes(html), pages }
      }
    } catch {
      index = noIndex()
    }
    return index
  }
  const sendIndex = async (reply: FastifyReply, pathname: string) => {
    const { html, hashes, pages } = await currentIndex()
    allowInlineScripts(reply, hashes)
    const page = pages.get(pathname)
    const nothingToAdd = !page || (!page.outline && filesOf(page).length === 0)
    if (nothingToAdd) return sendIndexFile(reply, indexFile)
    // A page whose heading paints with the HTML has its scripts fetched after that paint
    // (routes/chunks-after-first-paint); any other, with the HTML.
    if (page.outline) {
      const withHeading = withPageHeading(html, page.outline)
      return sendHtml(reply, withChunksAfterFirstPaint(withHeading, filesOf(page)))
    }
    return sendHtml(reply, withPreloads(html, page))
  }

  app.get('/*', async (request, reply) => {
    const pathname = request.url.split('?', 1)[0] ?? '/'
    if (isServerPath(pathname)) return reply.callNotFound()

    // The home route: the shell with the feed's first page in it (routes/first-feed-page),
    // or, when the feed does not answer in time, as it is. Signed out, with the answer the
    // app then shows; maybe signed in, the public cards only, until the app shows the user's.
    // A home page with a query names another feed (a saved search's link, a shared address:
    // `/?feed=job&near=...`): the newest posts would flash before it, so it gets the shell.
    const query = request.url.slice(pathname.length + 1)
    if (pathname === '/' && query === '' && (await isFile(indexFile))) {
      const page = await fetchFirstFeedPage(app, request.ip)
      const { html, hashes } = await currentIndex()
      if (page && html) {
        allowInlineScripts(reply, hashes)
        const withPage = mayBeSignedIn(request) ? withPublicCards : withFirstFeedPage
        return sendHtml(reply, withPage(html, page, options.publicBucketUrl))
      }
    }
    const file = pathname === '/' ? '/index.html' : await existingFile(root, pathname)
    if (file === '/index.html') return sendIndex(reply, pathname)
    if (file) {
      return file.startsWith(HASHED_ASSETS)
        ? reply.sendFile(file, { maxAge: ONE_YEAR_MS, immutable: true })
        : reply.header('cache-control', 'no-cache').sendFile(file, { cacheControl: false })
    }
    if (pathname.startsWith(HASHED_ASSETS) || !acceptsHtml(request)) return reply.callNotFound()
    return sendIndex(reply, pathname)
  })
}

/** index.html as built for this request: every deploy changes it, and / depends on the cookie. */
function sendHtml(reply: FastifyReply, html: string) {
  return reply
    .header('cache-control', 'no-cache')
    .header('vary', 'accept, cookie')
    .type('text/html; charset=utf-8')
    .send(html)
}

async function sendIndexFile(reply: FastifyReply, indexFile: string) {
  // Every deploy changes index.html; browsers must revalidate it to pick up new asset names.
  // What / holds depends on the session cookie (routes/first-feed-page): caches keep both.
  reply.header('cache-control', 'no-cache').header('vary', 'accept, cookie')
  if (!(await isFile(indexFile))) {
    return reply.code(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE)
  }
  return reply.sendFile('/index.html', { cacheControl: false })
}

/**
 * A browser holding the refresh cookie may restore a session when the app starts: it gets
 * the plain shell, as the feed it then shows is asked for with its token. Only a visitor
 * without one is certainly signed out.
 */
function mayBeSignedIn(request: FastifyRequest): boolean {
  return (request.headers.cookie ?? '').split(';').some((pair) => {
    return pair.trim().startsWith(`${REFRESH_COOKIE}=`)
  })
}

function isServerPath(pathname: string): boolean {
  return ['/api', '/socket.io'].some(
    (prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`),
  )
}

function acceptsHtml(request: FastifyRequest): boolean {
  return request.headers.accept?.includes('text/html') ?? false
}

/** The file's path from root (leading '/'), if the URL names a regular, non-hidden file inside it. */
async function existingFile(root: string, pathname: string): Promise<string | undefined> {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return undefined
  }
  if (decoded.includes('\0')) return undefined
  const absolute = path.join(root, decoded)
  if (!absolute.startsWith(root + path.sep)) return undefined
  const relative = `/${path.relative(root, absolute).split(path.sep).join('/')}`
  if (relative.split('/').some((segment) => segment.startsWith('.'))) return undefined
  return (await isFile(absolute)) ? relative : undefined
}

async function isFile(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isFile()
  } catch {
    return false
  }
}

/** A page's files in the order they are asked for: its stylesheets, then its scripts. */
const filesOf = ({ styles, scripts }: RoutePage) => [...styles, ...scripts]
