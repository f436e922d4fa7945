import './pagination.css'

/** "Page X of Y" with Previous and Next, bounded at 1 and the number of pages. */
export function Pagination({
  page,
  totalPages,
  onPageChange,
}: {
  page: number
  totalPages: number
  onPageChange: (page: number) => void
}) {
  const last = Math.max(1, totalPages)
  const current = Math.min(Math.max(1, page), last)
  return (
    <nav className="pagination" aria-label="Pagination">
      <button
        type="button"
        className="btn btn-small"
        disabled={current <= 1}
        onClick={() => onPageChange(Math.max(1, current - 1))}
      >
        Previous
      </button>
      <span aria-live="polite">
        Page {current} of {last}
      </span>
      <button
        type="button"
        className="btn btn-small"
        disabled={current >= last}
        onClick={() => onPageChange(Math.min(last, current + 1))}
      >
        Next
      </button>
    </nav>
  )
}
