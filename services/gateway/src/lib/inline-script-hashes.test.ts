import { createHash } from 'node:crypto'
import { inlineScriptHashes } from './inline-script-hashes'

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('the hashes of a page inline scripts (CSP script-src)', () => {
  it('hashes each inline script the browser runs, exactly as written (whitespace included)', () => {
    const classic = "\n  ;(function () { fetch('/api/auth/refresh') })()\n"
    const module = 'import("/assets/a.js")'
    const html = `<head><script>${classic}</script><script type="module">${module}</script>
      <script type="text/javascript">x()</script></head>`
    expect(inlineScriptHashes(html)).toEqual([sha256(classic), sha256(module), sha256('x()')])
  })

  it('leaves out scripts with a src and data blocks (the first feed page), which never run inline', () => {
    const html = `<script type="module" crossorigin src="/assets/index-1.js"></script>
      <script type="application/json" id="first-feed-page">{"jobs":[]}</script>`
    expect(inlineScriptHashes(html)).toEqual([])
  })
})
