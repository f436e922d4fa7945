import type { MouseEvent } from 'react'

export interface TocEntry {
  id: string
  title: string
}

/**
 * In-page contents. Links are plain #anchors, so they also work without
 * script; the click scrolls smoothly and keeps the hash in the address for sharing.
 */
export function TableOfContents({ entries }: { entries: readonly TocEntry[] }) {
  const jump = (event: MouseEvent<HTMLAnchorElement>, id: string) => {
    const target = document.getElementById(id)
    if (!target) return
    event.preventDefault()
    target.scrollIntoView?.({ behavior: 'smooth', block: 'start' })
    window.history.replaceState(window.history.state, '', `#${id}`)
  }
  return (
    <nav className="static-toc" aria-labelledby="toc-title">
      <h2 id="toc-title">Table of contents</h2>
      <ol>
        {entries.map((entry) => (
          <li key={entry.id}>
            <a href={`#${entry.id}`} onClick={(event) => jump(event, entry.id)}>
              {entry.title}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  )
}
