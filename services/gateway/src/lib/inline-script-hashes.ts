import { createHash } from 'node:crypto'
import type { FastifyReply } from 'fastify'

/** A script element: its attributes and its text (the HTML spec's raw text, up to `</script`). */
const SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi
/** The script types a browser runs (the HTML spec's JavaScript MIME types, and modules). */
const RUN_TYPES = /^(?:|module|(?:text|application)\/(?:x-)?(?:java|ecma)script)$/i
const CSP = 'content-security-policy'

/**
 * CSP hash sources (`'sha256-…'`, CSP Level 2 hashes) of the inline scripts a page runs.
 * Data blocks (`type="application/json"`: the first feed page) and scripts with a src are
 * not run inline and need none.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>()
  for (const [, attributes = '', text = ''] of html.matchAll(SCRIPT)) {
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue
    const type = /\stype\s*=\s*["']?([^"'\s>]*)/i.exec(` ${attributes}`)?.[1] ?? ''
    if (!RUN_TYPES.test(type.trim())) continue
    hashes.add(`'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`)
  }
  return [...hashes]
}

/**
 * On this answer only, the policy's script-src also allows exactly these inline scripts (the
 * gateway's way, as for the API reference page): the rest of the site keeps `'self'`.
 */
export function allowInlineScripts(reply: FastifyReply, hashes: readonly string[]): void {
  const policy = reply.getHeader(CSP)
  if (hashes.length === 0 || typeof policy !== 'string') return
  reply.header(CSP, policy.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`))
}
