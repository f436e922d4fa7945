import { readFileSync, writeFileSync } from 'node:fs'

// Two processes listening on one port (SO_REUSEPORT) let one restart while the other serves.
// When the stopping one closes its socket, connections the kernel already queued for it (the
// handshake done, not yet accepted) are reset, unless the kernel moves them to the other
// listener: `net.ipv4.tcp_migrate_req` (Linux 5.14+), off by default. Under load a few such
// connections are always waiting, so without it a planned restart breaks a few calls.

const KNOB = '/proc/sys/net/ipv4/tcp_migrate_req'

export type ReuseportHandover = 'on' | 'off' | 'unsupported'

/** Whether the kernel hands a closing listener's queued connections to another listener. */
export function reuseportHandover(): ReuseportHandover {
  try {
    return readFileSync(KNOB, 'utf8').trim() === '1' ? 'on' : 'off'
  } catch {
    return 'unsupported'
  }
}

/**
 * Turns the handover on where the process may (root). Returns what holds afterwards and a
 * function that puts the kernel back as it was, for a test that must leave the machine as it
 * found it.
 */
export function enableReuseportHandover(): { state: ReuseportHandover; restore: () => void } {
  const before = reuseportHandover()
  if (before !== 'off') return { state: before, restore: () => undefined }
  try {
    writeFileSync(KNOB, '1')
  } catch {
    // Not root, or a container without the sysctl: the caller reports what holds.
  }
  const state = reuseportHandover()
  return {
    state,
    restore: () => {
      if (state === 'on') writeFileSync(KNOB, '0')
    },
  }
}
