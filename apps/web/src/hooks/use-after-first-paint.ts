import { useEffect, useState } from 'react'

/** Set once the app's first screen has painted: later mounts need not wait again. */
let firstPaintDone = false

/** Resolves in the task after the next frame has painted (a hidden tab paints none). */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.visibilityState === 'hidden' || typeof requestAnimationFrame !== 'function') {
      setTimeout(resolve, 0)
      return
    }
    // A frame's animation callbacks run just before its paint; the task after it, after.
    requestAnimationFrame(() => setTimeout(resolve, 0))
  })
}

/**
 * False for the first render of the app, true once that render has painted (total
 * blocking time): what the first screen does not need for its content (the bell's counts,
 * the live connection) starts in a task of its own after the paint, instead of adding its
 * requests to the first render's long task on a slow phone. Once the first paint is past,
 * components that mount later get true from their first render.
 */
export function useAfterFirstPaint(): boolean {
  const [painted, setPainted] = useState(firstPaintDone)
  useEffect(() => {
    if (painted) return
    let unmounted = false
    void afterNextPaint().then(() => {
      firstPaintDone = true
      if (!unmounted) setPainted(true)
    })
    return () => {
      unmounted = true
    }
  }, [painted])
  return painted
}
