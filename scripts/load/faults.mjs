// The fault runner: what the marketplace day (marketplace-day.mjs) injects into its own stack
// (stack.mjs) at set times, and how each is healed. Without Docker (a CI run on this machine
// starts and stops the Docker engine), each container fault has its process equivalent:
//
//   docker pause / unpause   SIGSTOP / SIGCONT to the server's process (what the cgroup
//                            freezer does to a container's processes: they stop, their sockets
//                            stay open, nothing answers)
//   docker kill              SIGKILL, then the same command again on the same data and port
//   network faults           Toxiproxy (github.com/Shopify/toxiproxy/v2, v2.5.0) between the
//                            services and each server: its HTTP API adds toxics and disables
//                            proxies
//
// A plan is a comma-separated list of `<fault>@<start s>+<duration s>`, e.g.
// `broker-freeze@40+20,instances-kill@100+25`. Faults (docs/reliability.md has the figures):
//
//   broker-freeze, broker-kill, database-freeze, database-kill
//   instances-kill        instance 1 of every service SIGKILLed, started again at healing
//   gateway-restart       the gateway (the first of two when the services run twice: the other
//                         keeps the port served) SIGKILLed, started again at healing (the
//                         duration is the time it is left down before the start)
//   latency:<server>      500 ms added to every answer from the server (Toxiproxy `latency`)
//   timeout:<server>      the server's answers stop, connections stay open (`timeout`, 0)
//   reset:<server>        every connection reset at once (`reset_peer`, 0)
//   partition:<server>    the proxy disabled: connections closed, new ones refused
//   s3-down, smtp-down    partition:s3, partition:smtp
//
// <server> is database, broker, s3, smtp, or all (the four at once).
import { SERVICES } from './stack.mjs'

const PROXIED = ['database', 'broker', 's3', 'smtp']
/** The least time between one fault's healing and the next fault. */
const GAP_MS = 20_000

export function parsePlan(plan) {
  if (!plan) return []
  return plan
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const match = entry.match(/^([a-z0-9:-]+)@(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/)
      if (!match) throw new Error(`fault "${entry}": write <fault>@<start s>+<duration s>`)
      const [, name, at, duration] = match
      faultActions(name) // throws on an unknown fault
      return { name, atS: Number(at), durationS: Number(duration) }
    })
}

/** Whether the plan needs Toxiproxy in front of the servers. */
export const needsToxiproxy = (plan) =>
  plan.some(({ name }) => /^(latency|timeout|reset|partition):/.test(name) || /-down$/.test(name))

function serversOf(target) {
  if (target === 'all') return PROXIED
  if (!PROXIED.includes(target))
    throw new Error(`unknown server "${target}" (${PROXIED.join(', ')} or all)`)
  return [target]
}

/** `{ inject(stack), heal(stack) }` for a fault's name. */
export function faultActions(name) {
  const process = (server, inject, heal) => ({
    inject: async (stack) => inject(stack.servers[server]),
    heal: async (stack) => heal(stack.servers[server]),
  })
  switch (name) {
    case 'broker-freeze':
    case 'database-freeze':
      return process(
        name.split('-')[0],
        (p) => p.signal('SIGSTOP'),
        (p) => p.signal('SIGCONT'),
      )
    case 'broker-kill':
    case 'database-kill':
      return process(
        name.split('-')[0],
        (p) => p.kill(),
        (p) => p.start(),
      )
    case 'instances-kill':
      return {
        inject: async (stack) => {
          await Promise.all(SERVICES.map((service) => stack.instances[service][0].kill()))
        },
        heal: async (stack) => {
          // Started again three at a time, as the stack starts them (each waits for /readyz:
          // most of a start is waiting for its consumer groups to join, not CPU).
          const queue = SERVICES.map((service) => stack.instances[service][0])
          await Promise.all(
            [0, 1, 2].map(async () => {
              for (let next = queue.shift(); next; next = queue.shift()) await next.start()
            }),
          )
        },
      }
    case 'gateway-restart':
      return {
        inject: async (stack) => stack.gateway.kill(),
        heal: async (stack) => stack.gateway.start(),
      }
    case 's3-down':
      return faultActions('partition:s3')
    case 'smtp-down':
      return faultActions('partition:smtp')
  }
  const match = name.match(/^(latency|timeout|reset|partition):([a-z0-9]+)$/)
  if (!match) throw new Error(`unknown fault "${name}"`)
  const [, kind, target] = match
  const servers = serversOf(target)
  const toxic = {
    latency: { name: 'fault', type: 'latency', stream: 'downstream', attributes: { latency: 500 } },
    timeout: { name: 'fault', type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } },
    reset: { name: 'fault', type: 'reset_peer', stream: 'downstream', attributes: { timeout: 0 } },
  }[kind]
  const toxi = (stack) => {
    if (!stack.toxi) throw new Error(`${name} needs the stack started with Toxiproxy`)
    return stack.toxi
  }
  if (kind === 'partition')
    return {
      inject: async (stack) => {
        for (const server of servers) await toxi(stack).setEnabled(server, false)
      },
      heal: async (stack) => {
        for (const server of servers) await toxi(stack).setEnabled(server, true)
      },
    }
  return {
    inject: async (stack) => {
      for (const server of servers) await toxi(stack).addToxic(server, toxic)
    },
    heal: async (stack) => {
      for (const server of servers) await toxi(stack).removeToxic(server, 'fault')
    },
  }
}

/**
 * Runs the plan against the stack from `startedAt` (ms): each fault injected at its time,
 * healed after its duration. `onEvent` hears `{ fault, what: 'inject'|'heal', at }`. Answers
 * a promise of the faults as they happened (injectedAt, healedAt, healDoneAt in ms).
 */
export function runFaults(stack, plan, startedAt, onEvent = () => undefined) {
  const done = []
  let chain = Promise.resolve()
  for (const fault of plan) {
    const actions = faultActions(fault.name)
    chain = chain.then(async () => {
      // At its time, but never sooner than GAP_MS after the previous fault was healed (a
      // restart on a busy machine can take minutes): each fault's figures are its own.
      const previous = done.at(-1)
      const from = Math.max(
        startedAt + fault.atS * 1000,
        previous ? previous.healDoneAt + GAP_MS : 0,
      )
      const wait = from - Date.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
      const record = { ...fault, injectedAt: Date.now() }
      onEvent({ fault: fault.name, what: 'inject', at: record.injectedAt })
      await actions.inject(stack)
      const healIn = record.injectedAt + fault.durationS * 1000 - Date.now()
      if (healIn > 0) await new Promise((resolve) => setTimeout(resolve, healIn))
      record.healedAt = Date.now()
      onEvent({ fault: fault.name, what: 'heal', at: record.healedAt })
      await actions.heal(stack)
      record.healDoneAt = Date.now()
      onEvent({ fault: fault.name, what: 'healed', at: record.healDoneAt })
      done.push(record)
    })
  }
  return chain.then(() => done)
}
