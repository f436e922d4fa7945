// What the media service's variants weigh and cost: three kinds of 12 MP
// pictures as a phone sends them (a smooth one, a photo-like one, and the worst case:
// fine-grained detail everywhere), each made into its eight variants by the service's own
// code (services/media/src/pictures/make-variants.ts, through tsx), with the bytes of each
// variant and the CPU time per picture. A card lists w480 and w960: the "card ≤ 100 KB"
// figure is the w960 WebP column.
//
//   node scripts/bench/picture-variants.mjs
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const media = join(root, 'services', 'media')
const require = createRequire(join(media, 'package.json'))
const sharp = require('sharp')
const { tsImport } = await import(pathToFileURL(require.resolve('tsx/esm/api')).href)
const { makePictureFiles } = await tsImport(
  pathToFileURL(join(media, 'src', 'pictures', 'make-variants.ts')).href,
  import.meta.url,
)

const WIDTH = 4000
const HEIGHT = 3000
const noise = (sigma) =>
  sharp({
    create: {
      width: WIDTH,
      height: HEIGHT,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 128, sigma },
    },
  })
    .png()
    .toBuffer()

const pictures = [
  ['smooth (blurred noise, blur 12)', async () => sharp(await noise(60)).blur(12).jpeg({ quality: 90 }).toBuffer()],
  ['photo-like (blurred noise, blur 1.5)', async () => sharp(await noise(50)).blur(1.5).jpeg({ quality: 90 }).toBuffer()],
  ['worst case (raw noise)', async () => sharp(await noise(40)).jpeg({ quality: 85 }).toBuffer()],
]

console.log(`# picture variants of ${WIDTH} x ${HEIGHT} JPEGs (${new Date().toISOString()})\n`)
const rows = []
for (const [name, make] of pictures) {
  process.stdout.write(`making the ${name} original... `)
  const original = await make()
  process.stdout.write(`${(original.length / 1024).toFixed(0)} KB; variants... `)
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  const { original: cleaned, variants } = await makePictureFiles(original, 'jobImages/u/picture.jpg')
  const files = [cleaned, ...variants]
  const wallMs = performance.now() - started
  const cpu = process.cpuUsage(cpuBefore)
  console.log(`${wallMs.toFixed(0)} ms`)
  const size = (suffix) => {
    const file = files.find((f) => f.key.endsWith(suffix))
    return file ? (file.body.length / 1024).toFixed(1) : '-'
  }
  rows.push([
    name,
    (original.length / 1024).toFixed(0),
    size('.avatar.webp'),
    size('.w480.webp'),
    size('.w960.webp'),
    size('.w1280.webp'),
    size('.w960.jpg'),
    wallMs.toFixed(0),
    ((cpu.user + cpu.system) / 1000).toFixed(0),
  ])
}
console.log(
  '\n| picture | original KB | avatar WebP KB | w480 WebP KB | w960 WebP KB | w1280 WebP KB | w960 JPEG KB | wall ms | CPU ms |',
)
console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: |')
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
