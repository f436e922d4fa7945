import type { ReactElement } from 'react'
import { createStore } from '@/app/store'
import { jsonResponse, renderRoutes, signIn, stubFetch } from '@/test/helpers'

type FetchHandler = Parameters<typeof stubFetch>[0]

let fetchStub: ReturnType<typeof stubFetch> | null = null
// Registered by every test file that imports this one: each test starts with the real fetch.
afterEach(() => {
  fetchStub?.restore()
  fetchStub = null
})

/** Renders one of the four request lists for a signed-in user, its calls answered by `handler`. */
export function renderRequestsPage(page: ReactElement, handler: FetchHandler) {
  fetchStub?.restore()
  fetchStub = stubFetch(handler)
  const store = createStore()
  signIn(store)
  return renderRoutes([{ path: '/requests', element: page }], { at: '/requests', store })
}

/** Answers every GET with `list` and every DELETE with 204, keeping the deleted paths. */
export function listThatDeletes(list: unknown): { handler: FetchHandler; deleted: string[] } {
  const deleted: string[] = []
  const handler: FetchHandler = (path, request) => {
    if (request.method === 'DELETE') {
      deleted.push(path)
      return new Response(null, { status: 204 })
    }
    return jsonResponse(200, list)
  }
  return { handler, deleted }
}
