import type { JobPost, JobsFeedAnswer } from '@marketplace/contracts/api'
import {
  PICTURE_VARIANTS,
  fallbackExtensionOf,
  isUploadKey,
  variantKey,
  type PictureVariant,
  type VariantFormat,
} from '@marketplace/contracts/marketplace'
import type { FastifyInstance } from 'fastify'
import { withoutModulePreloads } from './chunks-after-first-paint'
import { escapeHtml, scriptJson } from './html-text'

/**
 * The home feed's first page in the shell's HTML (largest contentful paint): a
 * visitor who is signed out sees the newest posts with the HTML's first bytes, instead of
 * after the script, the configuration and the feed's request. The web app reads the same
 * answer from the page (FIRST_FEED_PAGE_ID) for its first render, so the feed is asked for
 * once per visit either way, and React's cards replace these with the same size and text.
 *
 * Only the anonymous answer is ever rendered (the request goes out without the visitor's
 * cookies or token): the same for every visitor, nothing private.
 */

/** The query the web app's feed asks first (feed-slice's initial state, feed-api's params). */
export const FIRST_FEED_PAGE_PATH = '/api/jobs?page=1&sort=desc'
/** The id of the `<script type="application/json">` holding the answer (apps/web main.tsx). */
export const FIRST_FEED_PAGE_ID = 'first-feed-page'
/** index.html marks the outline cards the first page replaces with these comments. */
const START_MARK = '<!--first-feed-page-->'
const END_MARK = '<!--/first-feed-page-->'

/** Past this the page goes out with its outline cards, and the app asks for the feed itself. */
const FEED_TIMEOUT_MS = 1000
/** The cards the first screen of a phone or a desktop shows get their picture first. */
const EAGER_PICTURES = 4
const NO_IMAGE = '/images/no-image.svg'
/** apps/web lib/images GRID_CARD_SIZES: the grid card's box, for the browser's choice. */
const GRID_CARD_SIZES =
  '(max-width: 355px) calc(100vw - 24px), (max-width: 527px) calc(50vw - 18px), (max-width: 768px) 240px, 360px'
/** apps/web lib/images: a card lists w480 and w960; w480 for what reads no srcset. */
const CARD_VARIANTS: readonly PictureVariant[] = ['w480', 'w960']
/** apps/web PostCard HIDDEN_LOCATION_HINT. */
const HIDDEN_LOCATION_HINT = 'Location visible once accepted'

/** The anonymous first page, or null (the feed failed, was slow, or answered no posts). */
export async function fetchFirstFeedPage(
  app: FastifyInstance,
  visitorIp: string,
): Promise<JobsFeedAnswer | null> {
  try {
    // Through the gateway's own route to jobs (its proxy and its instances), headers of no one.
    // Counted against the visitor's rate limit, as the app's own request for it would have been.
    const answer = await Promise.race([
      app.inject({
        method: 'GET',
        url: FIRST_FEED_PAGE_PATH,
        headers: { accept: 'application/json' },
        remoteAddress: visitorIp,
      }),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), FEED_TIMEOUT_MS).unref()),
    ])
    if (!answer || answer.statusCode !== 200) return null
    const body = answer.json<JobsFeedAnswer>()
    return Array.isArray(body.jobs) && body.jobs.length > 0 ? body : null
  } catch {
    return null
  }
}

/**
 * index.html with the first page's public cards in place of its outline cards, for a browser
 * that may be signed in (it holds the refresh cookie): the newest posts paint with the HTML
 * as they do signed out (largest contentful paint), and the app replaces them with
 * the user's own first page (index.html's script asks for it with the renewed session) as
 * soon as it renders. What only the user's page can show (a location their accepted request
 * reveals, no request button on their own post) comes with it; the cards keep their size.
 * The anonymous answer is not put in the page: the app must not take it for the user's. As
 * signed out, the app's scripts are fetched after the first paint (main.tsx finds the cards;
 * routes/chunks-after-first-paint), not beside the pictures on a phone's slow link.
 */
export function withPublicCards(html: string, page: JobsFeedAnswer, publicBucketUrl: string) {
  const withCards = replaceOutlineCards(html, page, publicBucketUrl, '')
  return withCards === html ? html : withoutModulePreloads(withCards)
}

function replaceOutlineCards(
  html: string,
  page: JobsFeedAnswer,
  publicBucketUrl: string,
  after: string,
): string {
  const start = html.indexOf(START_MARK)
  const end = html.indexOf(END_MARK, start)
  if (start < 0 || end < 0) return html
  const cards = page.jobs.map((post, index) => postCard(post, index, publicBucketUrl)).join('')
  return html.slice(0, start) + cards + after + html.slice(end + END_MARK.length)
}

/** index.html with the first page's cards and answer in place of its outline cards. */
export function withFirstFeedPage(
  html: string,
  page: JobsFeedAnswer,
  publicBucketUrl: string,
): string {
  const data = `<script type="application/json" id="${FIRST_FEED_PAGE_ID}">${scriptJson(page)}</script>`
  const withPosts = replaceOutlineCards(html, page, publicBucketUrl, data)
  if (withPosts === html) return html
  // The posts are on screen with the HTML: the app's scripts wait for that first paint (apps/web
  // main.tsx) and are fetched then (routes/chunks-after-first-paint), instead of beside the
  // stylesheet, where a phone's slow link would share its bandwidth between them and what
  // paints.
  return withoutModulePreloads(withPosts)
}

/** apps/web PostCard in the grid, as static HTML: the same classes, so the same box. */
function postCard(post: JobPost, index: number, publicBucketUrl: string): string {
  const title = escapeHtml(post.title)
  const location =
    post.location === null
      ? `<p class="post-card-meta post-card-hidden" title="${HIDDEN_LOCATION_HINT}"><span class="masked">••••••••</span><span class="field-hint">${HIDDEN_LOCATION_HINT}</span></p>`
      : post.location
        ? `<p class="post-card-meta">${escapeHtml(post.location)}</p>`
        : ''
  const salary = post.salary ? `<p class="post-card-meta muted">${escapeHtml(post.salary)}</p>` : ''
  // Look-alikes of Details and Send request: they do nothing until React's cards replace
  // these, so they are not buttons (nothing to focus or press that does not answer).
  const actions =
    '<div class="card-actions"><span class="btn btn-small">Details</span><span class="btn btn-small btn-primary">Send request</span></div>'
  return (
    // Hidden from assistive technology and from queries by role: a preview for the eyes,
    // replaced by the app's own cards (the same posts, each a named article with working
    // buttons) within a second or two. Until then the shell's "Loading..." status speaks for
    // the page, and a script or a screen reader that looks for a post's article finds the
    // app's, never one about to be removed.
    `<article class="card post-card post-card-grid" aria-hidden="true">` +
    picture(post.jobPicture, index < EAGER_PICTURES, publicBucketUrl) +
    `<div class="card-body post-card-body"><h3 class="post-card-title">${title}</h3>${location}${salary}${actions}</div></article>`
  )
}

/** apps/web components/ui/Picture for a card: the variants by srcset, or the placeholder. */
function picture(key: string | null | undefined, eager: boolean, publicBucketUrl: string): string {
  const loading = eager ? 'fetchpriority="high"' : 'loading="lazy"'
  const img = (attributes: string) =>
    `<img class="post-card-image" alt="" width="400" height="300" ${loading} decoding="async" ${attributes}>`
  if (!key || !isUploadKey(key)) {
    const src = !key ? NO_IMAGE : /^https?:\/\//.test(key) ? key : `/${key.replace(/^\/+/, '')}`
    return img(`src="${escapeHtml(src)}"`)
  }
  const format: VariantFormat = fallbackExtensionOf(key) ? 'fallback' : 'webp'
  const bucket = publicBucketUrl.replace(/\/+$/, '')
  const url = (variant: PictureVariant, as: VariantFormat) =>
    escapeHtml(`${bucket}/${variantKey(key, variant, as) ?? ''}`)
  const set = (as: VariantFormat) =>
    CARD_VARIANTS.map((variant) => `${url(variant, as)} ${PICTURE_VARIANTS[variant].width}w`).join(
      ', ',
    )
  const webp =
    format === 'fallback'
      ? `<source type="image/webp" srcset="${set('webp')}" sizes="${GRID_CARD_SIZES}">`
      : ''
  return `<picture>${webp}${img(`src="${url('w480', format)}" srcset="${set(format)}" sizes="${GRID_CARD_SIZES}"`)}</picture>`
}
