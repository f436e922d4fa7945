/**
 * Whether this process records traces. Every traced code path in the kit asks this first and
 * does nothing else when it is off, so a service started without tracing runs the same code
 * as before tracing existed (no span objects, no header parsing, no extra allocations).
 * This module loads nothing of OpenTelemetry's SDK: the kit imports it everywhere.
 */
let flush: (() => Promise<void>) | null = null

export function isTracingOn(): boolean {
  return flush !== null
}

/** Set by startTracing() with the provider's flush; null switches tracing back off (tests). */
export function setTracingOn(flushSpans: (() => Promise<void>) | null): void {
  flush = flushSpans
}

/** Sends the spans still buffered; called when the app closes. */
export async function flushTracing(): Promise<void> {
  await flush?.()
}
