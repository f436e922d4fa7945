// A stand-in for socket.io-client in tests: jest.mock('socket.io-client', () =>
// jest.requireActual('@/test/fake-socket')). It records what the client
// emits and lets a test play the server.
type Handler = (...args: unknown[]) => void

export class FakeSocket {
  connected = false
  emitted: [string, ...unknown[]][] = []
  disconnected = false
  private handlers = new Map<string, Handler[]>()

  constructor(public options: Record<string, unknown>) {}

  on(event: string, handler: Handler) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler])
    return this
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args])
    return this
  }
  connect() {
    this.disconnected = false
    return this
  }
  disconnect() {
    this.connected = false
    this.disconnected = true
    return this
  }
  removeAllListeners() {
    this.handlers.clear()
    return this
  }

  /** The server's side: 'connect' marks the socket connected first, as Socket.IO does. */
  serverSends(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true
    if (event === 'disconnect') this.connected = false
    for (const handler of this.handlers.get(event) ?? []) handler(...args)
  }
  emittedNamed(event: string) {
    return this.emitted.filter(([name]) => name === event)
  }
}

export const sockets: FakeSocket[] = []

export const io = jest.fn((options: Record<string, unknown>) => {
  const socket = new FakeSocket(options)
  sockets.push(socket)
  return socket
})

export const lastSocket = () => {
  const socket = sockets.at(-1)
  if (!socket) throw new Error('no socket was opened')
  return socket
}
