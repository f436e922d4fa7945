import { createHash } from 'node:crypto'

/**
 * The gateway's memory of recent writes, so a caller's next read reflects them on whichever
 * instance it lands (service-kit's written-positions.ts says what a position is).
 *
 * A service answers a write with the positions it left (`X-Read-After`); the gateway keeps
 * them for a short while under the keys of the caller (its access token, its address) and
 * adds them to that caller's next reads of the same service. Clients that send nothing, as the
 * spec's plain HTTP clients, get read-your-writes all the same; a client that sends positions
 * of its own (the web app, after its writes) has them merged.
 *
 * Positions of writes that took something away from others' sight (`X-Read-After-Everyone`:
 * a post made private, deleted) are added to every caller's reads for longer: a guest reading
 * right after an owner hid a post's location must not get it from the instance that has not
 * learned of it yet.
 *
 * The windows only need to outlast how far one instance's read model lags another's (tens of
 * milliseconds, seconds while Kafka is away); an instance that already applied a position
 * settles it with a map look-up, so a long window costs header bytes, not database reads.
 */
export interface ReadAfterMemoryOptions {
  /** How long a caller's own positions are sent with its reads (ms). */
  callerWindowMs?: number
  /** How long positions for everyone are sent with every read (ms). */
  everyoneWindowMs?: number
  /** Positions kept per caller key and service; the oldest go first. */
  perCaller?: number
  /** Positions for everyone kept per service. */
  perService?: number
  /** Caller keys kept; the least recently written go first. */
  callers?: number
  now?: () => number
}

interface Remembered {
  position: string
  at: number
}

/** What identifies a caller across its requests, as far as the gateway can tell. */
export interface CallerOfRequest {
  ip: string
  headers: { authorization?: string | undefined }
}

export class ReadAfterMemory {
  private readonly callerWindowMs: number
  private readonly everyoneWindowMs: number
  private readonly perCaller: number
  private readonly perService: number
  private readonly callerLimit: number
  private readonly now: () => number
  /** `<service> <key>` → positions, oldest first. */
  private readonly byCaller = new Map<string, Remembered[]>()
  /** service → positions for everyone, oldest first. */
  private readonly forEveryone = new Map<string, Remembered[]>()

  constructor(options: ReadAfterMemoryOptions = {}) {
    this.callerWindowMs = options.callerWindowMs ?? 15_000
    this.everyoneWindowMs = options.everyoneWindowMs ?? 60_000
    this.perCaller = options.perCaller ?? 64
    this.perService = options.perService ?? 64
    this.callerLimit = options.callers ?? 50_000
    this.now = options.now ?? Date.now
  }

  /**
   * The keys a request's caller is known by: its access token (hashed: the gateway keeps no
   * credential) and its address. The address covers the same person reading signed out right
   * after writing signed in (a page opened in a private window, a script's guest read).
   */
  static keysOf(request: CallerOfRequest): string[] {
    const keys = [`ip:${request.ip}`]
    const authorization = request.headers.authorization
    if (authorization)
      keys.push(`token:${createHash('sha256').update(authorization).digest('base64url')}`)
    return keys
  }

  /** A write's answer: its positions, for the caller and (some) for everyone. */
  remember(
    service: string,
    callerKeys: readonly string[],
    forCaller: readonly string[],
    forEveryone: readonly string[],
  ): void {
    if (forCaller.length === 0 && forEveryone.length === 0) return
    const at = this.now()
    for (const key of callerKeys) {
      const id = `${service} ${key}`
      const list = this.byCaller.get(id) ?? []
      // Most recently written last: the caller that wrote longest ago is dropped first.
      this.byCaller.delete(id)
      this.byCaller.set(id, append(list, forCaller, at, this.perCaller))
      if (this.byCaller.size > this.callerLimit)
        this.byCaller.delete(this.byCaller.keys().next().value!)
    }
    if (forEveryone.length > 0) {
      const list = this.forEveryone.get(service) ?? []
      this.forEveryone.set(service, append(list, forEveryone, at, this.perService))
    }
  }

  /**
   * The positions a read of `service` by this caller should be sent with (may be none), the
   * caller's newest first, then those for everyone newest first: a service reads a bounded
   * number of them, and the newest are the ones an instance is likeliest not to hold yet.
   */
  positionsFor(service: string, callerKeys: readonly string[]): string[] {
    const now = this.now()
    const positions = new Set<string>()
    if (this.byCaller.size > 0) {
      for (const key of callerKeys) {
        const id = `${service} ${key}`
        const list = this.byCaller.get(id)
        if (!list) continue
        const live = unexpired(list, now - this.callerWindowMs)
        if (live.length === 0) this.byCaller.delete(id)
        else if (live !== list) this.byCaller.set(id, live)
        for (let i = live.length - 1; i >= 0; i -= 1) positions.add(live[i]!.position)
      }
    }
    const everyone = this.forEveryone.get(service)
    if (everyone) {
      const live = unexpired(everyone, now - this.everyoneWindowMs)
      if (live.length === 0) this.forEveryone.delete(service)
      else if (live !== everyone) this.forEveryone.set(service, live)
      for (let i = live.length - 1; i >= 0; i -= 1) positions.add(live[i]!.position)
    }
    return [...positions]
  }

  /** Whether anything is remembered at all (a read with nothing to add costs no hashing). */
  get isEmpty(): boolean {
    return this.byCaller.size === 0 && this.forEveryone.size === 0
  }
}

/** The list with `positions` (now) at its end, a position written again moved there. */
function append(
  list: Remembered[],
  positions: readonly string[],
  at: number,
  limit: number,
): Remembered[] {
  const fresh = new Set(positions)
  const next = list.filter((entry) => !fresh.has(entry.position))
  for (const position of fresh) next.push({ position, at })
  return next.length > limit ? next.slice(next.length - limit) : next
}

/** The entries written after `since` (the list itself when none expired). */
function unexpired(list: Remembered[], since: number): Remembered[] {
  if (list.length === 0 || list[0]!.at > since) return list
  return list.filter((entry) => entry.at > since)
}

/** The positions in a header's value (comma separated; several headers joined). */
export function positionsIn(header: string | string[] | undefined): string[] {
  if (header === undefined) return []
  return (Array.isArray(header) ? header : [header])
    .flatMap((line) => line.split(','))
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.length <= 128)
}
