import type { JobsFeedAnswer } from '@marketplace/contracts/api'

/** The id the gateway gives the answer it put in the page (services/gateway first-feed-page). */
export const FIRST_FEED_PAGE_ID = 'first-feed-page'

/**
 * The feed's first page as the gateway put it into the HTML for a visitor who is signed out
 * (its cards paint with the HTML), or null. Read before React replaces the shell.
 */
export function readFirstFeedPage(): JobsFeedAnswer | null {
  const element = document.getElementById(FIRST_FEED_PAGE_ID)
  if (!element?.textContent) return null
  try {
    const answer = JSON.parse(element.textContent) as Partial<JobsFeedAnswer>
    return Array.isArray(answer.jobs) ? (answer as JobsFeedAnswer) : null
  } catch {
    return null
  }
}
