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

/**
 * Resolves once the clock has reached `instant`. Looped: a timer may fire a millisecond before
 * its delay by Date.now()'s reading, and a token signed then would carry the second before.
 */
export async function waitUntil(instant: Date): Promise<void> {
  for (
    let delay = instant.getTime() - Date.now();
    delay > 0;
    delay = instant.getTime() - Date.now()
  ) {
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}
