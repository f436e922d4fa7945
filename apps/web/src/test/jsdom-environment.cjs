// jsdom lacks what Node 20 has and the app uses: fetch (RTK Query), TextEncoder (react-router),
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
  }
}

module.exports = NodeFetchJsdomEnvironment
