const dayFormat = new Intl.DateTimeFormat('en', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  year: 'numeric',
})
const timeFormat = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' })

/** The local calendar day of an ISO time, as a key: "2026-11-24". */
export function dayKey(iso: string): string {
  const date = new Date(iso)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

/** A day separator's words: "Today", "Yesterday", else "Monday, November 23, 2026". */
export function dayLabel(iso: string, now: Date = new Date()): string {
  const key = dayKey(iso)
  if (key === dayKey(now.toISOString())) return 'Today'
  const yesterday = new Date(now)
  yesterday.setDate(now.getDate() - 1)
  if (key === dayKey(yesterday.toISOString())) return 'Yesterday'
  return dayFormat.format(new Date(iso))
}

/** "3:05 PM": a bubble's time. */
export const timeOfDay = (iso: string): string => timeFormat.format(new Date(iso))
