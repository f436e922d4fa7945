/** @jest-environment node */
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { precompressDirectory } from './precompress-assets'

describe('precompressing the build', () => {
  let dist: string

  beforeEach(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'web-precompress-'))
    await mkdir(path.join(dist, 'assets'))
  })

  afterEach(() => rm(dist, { recursive: true, force: true }))

  const exists = (file: string) =>
    readFile(path.join(dist, file)).then(
      () => true,
      () => false,
    )

  it('writes brotli and gzip copies of scripts, styles and index.html that decode to the file', async () => {
    const script = 'export const feed = "posts";\n'.repeat(200)
    const html = `<!doctype html><html><body>${'<p>shell</p>'.repeat(120)}</body></html>`
    await writeFile(path.join(dist, 'assets', 'index-abc123.js'), script)
    await writeFile(path.join(dist, 'assets', 'index-abc123.css'), '.card{margin:0}\n'.repeat(100))
    await writeFile(path.join(dist, 'index.html'), html)

    const written = await precompressDirectory(dist)

    expect(written.map((entry) => entry.file).sort()).toEqual([
      'assets/index-abc123.css',
      'assets/index-abc123.js',
      'index.html',
    ])
    const js = path.join(dist, 'assets', 'index-abc123.js')
    expect(brotliDecompressSync(await readFile(`${js}.br`)).toString()).toBe(script)
    expect(gunzipSync(await readFile(`${js}.gz`)).toString()).toBe(script)
    expect(brotliDecompressSync(await readFile(path.join(dist, 'index.html.br'))).toString()).toBe(
      html,
    )
    for (const entry of written) {
      expect(entry.br).toBeLessThan(entry.raw)
      expect(entry.gzip).toBeLessThan(entry.raw)
    }
  })

  it('leaves pictures, tiny files and files that would not shrink as they are', async () => {
    await writeFile(path.join(dist, 'photo.png'), Buffer.alloc(4096, 7))
    await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
    // Random bytes do not compress: a "compressed" copy would be larger.
    await writeFile(path.join(dist, 'assets', 'noise.txt'), randomBytes(4096))

    await precompressDirectory(dist)

    expect(await exists('photo.png.br')).toBe(false)
    expect(await exists('photo.png.gz')).toBe(false)
    expect(await exists('favicon.svg.br')).toBe(false)
    expect(await exists('assets/noise.txt.br')).toBe(false)
    expect(await exists('assets/noise.txt.gz')).toBe(false)
  })
})
