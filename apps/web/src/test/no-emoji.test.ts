/**
 * @jest-environment node
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

// No emoji or pictograph as an icon. Chromium on a fresh Debian (and any system
// without an emoji font) draws them as empty boxes; the app draws its own SVG icons
// (src/components/icons, docs/web-app.md "Icons"). This walks every source and stylesheet
// under src (tests and test support aside: they may name what must not come back) and
// index.html, and names the file, line and character of any pictograph it finds.
const webDir = path.resolve(__dirname, '../..')
const srcDir = path.join(webDir, 'src')

/**
 * Emoji and pictographic symbols: Unicode's Extended_Pictographic and emoji presentation
 * (U+FE0F, keycaps, regional indicators), and the symbol blocks icons were drawn from:
 * arrows, technical symbols, geometric shapes, miscellaneous symbols, dingbats, the arrows
 * and symbols of U+2B00-2BFF, and the planes' pictographs from U+1F000 on. The copyright,
 * registered and trade mark signs are text, in every Latin font.
 */
const PICTOGRAPH =
  /[\p{Extended_Pictographic}\p{Regional_Indicator}\u{FE0F}\u{20E3}\u{2190}-\u{21FF}\u{2300}-\u{23FF}\u{25A0}-\u{25FF}\u{2600}-\u{27BF}\u{2B00}-\u{2BFF}\u{1F000}-\u{1FAFF}]/gu
const TEXT_SIGNS = new Set(['©', '®', '™'])

function pictographsIn(text: string): string[] {
  return [...text.matchAll(PICTOGRAPH)].map((match) => match[0]).filter((c) => !TEXT_SIGNS.has(c))
}

const codePoint = (character: string) =>
  `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return full === path.join(srcDir, 'test') ? [] : sourceFiles(full)
    if (!/\.(tsx?|css|html|json)$/.test(entry.name)) return []
    if (/\.test\.tsx?$/.test(entry.name)) return []
    return [full]
  })
}

describe('no emoji as icons', () => {
  it('recognises the pictographs the app once used, and lets typography through', () => {
    for (const sample of [
      '💸',
      '🔔',
      '🤝',
      '🎯',
      '⭐',
      '🧘',
      '★',
      '♥',
      '♡',
      '←',
      '↶',
      '👁️',
      '✅',
      '☰',
    ])
      expect(pictographsIn(`a ${sample} b`)).not.toEqual([])
    expect(pictographsIn('© 2026 Marketplace • Settings › Account… (•••) 2 × 16 px ’§')).toEqual([])
  })

  it('finds none in src (tests aside) or index.html', () => {
    const files = [...sourceFiles(srcDir), path.join(webDir, 'index.html')]
    expect(files.length).toBeGreaterThan(100)
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          pictographsIn(line).map(
            (character) =>
              `${path.relative(webDir, file)}:${index + 1}: ${character} (${codePoint(character)})`,
          ),
        ),
    )
    expect(found).toEqual([])
  })
})
