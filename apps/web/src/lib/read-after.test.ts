import { createStore } from '@/app/store'
import { api } from '@/lib/api'
import { forgetWrites, positionsFor, READ_AFTER_WINDOW_MS, rememberWrite } from '@/lib/read-after'

// The app's own writes are read back on any instance: their answers' positions go with the
// next reads of the same service (the real base query, with fetch answered here).
const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    readPath: build.query<unknown, string>({ query: (path) => path }),
    writePath: build.mutation<unknown, string>({
      query: (path) => ({ url: path, method: 'POST', body: {} }),
    }),
  }),
})

function serve(writeHeaders: Record<string, string>) {
  const calls: Array<{ path: string; method: string; readAfter: string | null }> = []
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = input instanceof Request ? input : new Request(String(input), init)
    const path = new URL(request.url).pathname
    calls.push({ path, method: request.method, readAfter: request.headers.get('x-read-after') })
    const headers = {
      'content-type': 'application/json',
      ...(request.method === 'POST' ? writeHeaders : {}),
    }
    return new Response('{}', { status: 200, headers })
  })
  return calls
}

afterEach(() => {
  jest.restoreAllMocks()
  forgetWrites()
})

describe('read-your-writes in the base query', () => {
  it("sends a write's positions with the next reads of the same service only", async () => {
    const calls = serve({ 'x-read-after': 'post:p1@5' })
    const store = createStore()
    await store.dispatch(probeApi.endpoints.writePath.initiate('/api/jobs'))
    await store.dispatch(probeApi.endpoints.readPath.initiate('/api/jobs?page=1'))
    await store.dispatch(probeApi.endpoints.readPath.initiate('/api/people?page=1'))
    expect(calls).toEqual([
      { path: '/api/jobs', method: 'POST', readAfter: null },
      { path: '/api/jobs', method: 'GET', readAfter: 'post:p1@5' },
      { path: '/api/people', method: 'GET', readAfter: null },
    ])
  })

  it('keeps positions for a window, one service for /api/users and /api/people', () => {
    rememberWrite('/api/users/u1/worker-profile', 'user:u1@9, user:u1@9', 1_000)
    expect(positionsFor('/api/people?search=piano', 1_000)).toBe('user:u1@9')
    expect(positionsFor('/api/jobs', 1_000)).toBeNull()
    expect(positionsFor('/api/people', 1_000 + READ_AFTER_WINDOW_MS)).toBeNull()
  })
})
