/**
 * The instant from which access tokens count again after a password change, a reset or a
 * deletion request. Tokens carry `iat` in whole seconds, and every service keeps a token
 * when `iat >= cutOff / 1000`, so the cut-off is the start of the NEXT second: a token
 * minted in the same second as the change, before it, must die too. The caller's fresh
 * token is signed once that second has begun (`waitUntil`).
 */
export function revocationCutOff(now: Date): Date {
  return new Date((Math.floor(now.getTime() / 1000) + 1) * 1000)
}

export async function waitUntil(instant: Date): Promise<void> {
  const delay = instant.getTime() - Date.now()
  if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay))
}
