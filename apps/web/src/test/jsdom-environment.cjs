// jsdom lacks what Node has and the app uses: fetch (RTK Query), TextEncoder (react-router),
// streams and structuredClone. They are handed in from Node, so tests fetch for real
// (against a stubbed `fetch` where a test wants to) instead of through a polyfill.
const { TestEnvironment } = require('jest-environment-jsdom')

const FROM_NODE = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  'WritableStream',
  'TransformStream',
  'structuredClone',
  'AbortController',
  'AbortSignal',
  'BroadcastChannel',
]

class NodeFetchJsdomEnvironment extends TestEnvironment {
  async setup() {
    await super.setup()
    for (const name of FROM_NODE) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name]
    }
    // The app calls same-origin paths ('/api/...'), which Node's Request cannot resolve
    // without a base: resolve them against the test page's address, as a browser does.
    const page = this.global
    const absolute = (input) =>
      typeof input === 'string' && input.startsWith('/')
        ? new URL(input, page.location.href).href
        : input
    const NodeRequest = globalThis.Request
    page.Request = class Request extends NodeRequest {
      constructor(input, init) {
        super(absolute(input), init)
      }
    }
    page.fetch = (input, init) => globalThis.fetch(absolute(input), init)
  }
}

module.exports = NodeFetchJsdomEnvironment
