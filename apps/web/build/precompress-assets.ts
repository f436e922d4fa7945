import { readdir, readFile, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

// Text formats only: pictures and fonts are compressed by their own format already, and
// source maps are read by developer tools alone (not worth the build time).
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/
// Below this a compressed copy saves less than a packet; the gateway then sends the file as is.
const MIN_BYTES = 1024

export interface PrecompressedFile {
  file: string
  raw: number
  br?: number
  gzip?: number
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every text file of the build, at the strongest
 * settings (done once per build, not per request), so the gateway's @fastify/static
 * (preCompressed) sends the best encoding a browser accepts at no CPU cost per request. A
 * variant that would not be smaller is not written.
 */
export async function precompressDirectory(dir: string): Promise<PrecompressedFile[]> {
  const written: PrecompressedFile[] = []
  for (const file of await filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue
    const raw = await readFile(file)
    if (raw.length < MIN_BYTES) continue
    const [br, gz] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gzipAsync(raw, { level: constants.Z_BEST_COMPRESSION }),
    ])
    const entry: PrecompressedFile = { file: path.relative(dir, file), raw: raw.length }
    if (br.length < raw.length) {
      await writeFile(`${file}.br`, br)
      entry.br = br.length
    }
    if (gz.length < raw.length) {
      await writeFile(`${file}.gz`, gz)
      entry.gzip = gz.length
    }
    written.push(entry)
  }
  return written
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true })
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) return filesUnder(full)
      return entry.isFile() && (await stat(full)).isFile() ? [full] : []
    }),
  )
  return nested.flat()
}

/** Runs once the build has written everything, index.html and the public folder included. */
export function precompressAssets(): Plugin {
  let outDir = 'dist'
  return {
    name: 'marketplace:precompress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      const files = await precompressDirectory(outDir)
      this.info(`precompressed ${files.length} files (brotli, gzip)`)
    },
  }
}
