import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Provider } from 'react-redux'
import { RouterProvider, createMemoryRouter } from 'react-router-dom'
import { createStore } from '@/app/store'
import { jsonResponse, signIn, stubFetch } from '@/test/helpers'
import type { JobPost } from '@marketplace/contracts/api'
import { Messages } from '@marketplace/contracts/validation'
import MyPostsPage from './MyPostsPage'

function samplePost(overrides: Partial<JobPost> = {}): JobPost {
  return {
    _id: 'p1',
    jobID: 'p1',
    userID: 'u1',
    title: 'Move a piano',
    location: '12 Main St',
    jobStartEnd: 'Saturday',
    salary: '$80',
    paymentType: ['Cash'],
    contact: 'Phone',
    infos: 'Third floor',
    displayLocation: true,
    displayContact: true,
    jobPicture: null,
    category: 'Moving',
    isOnline: true,
    expirationDate: null,
    authorizedUsers: [],
    state: 'live',
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    ...overrides,
  }
}

// One post in each state, newest first in this order.
const posts = [
  samplePost({ _id: 'p1', title: 'Move a piano', createdAt: '2026-01-05T10:00:00.000Z' }),
  samplePost({
    _id: 'p2',
    title: 'Paint a fence',
    state: 'expiring-soon',
    expirationDate: '2026-12-01',
    createdAt: '2026-01-04T10:00:00.000Z',
  }),
  samplePost({
    _id: 'p3',
    title: 'Wash a car',
    isOnline: false,
    state: 'offline',
    createdAt: '2026-01-03T10:00:00.000Z',
  }),
  samplePost({
    _id: 'p4',
    title: 'Rake leaves',
    state: 'expired',
    expirationDate: '2026-11-20',
    createdAt: '2026-01-02T10:00:00.000Z',
  }),
  samplePost({
    _id: 'p5',
    title: 'Fix a sink',
    state: 'filled',
    filledAt: '2026-11-28T10:00:00.000Z',
    createdAt: '2026-01-01T10:00:00.000Z',
  }),
]

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

function renderPage(handler: Parameters<typeof stubFetch>[0], at = '/settings-employer-jobs') {
  fetchStub = stubFetch(handler)
  const store = createStore()
  signIn(store)
  const router = createMemoryRouter(
    [{ path: '/settings-employer-jobs', element: <MyPostsPage /> }],
    { initialEntries: [at] },
  )
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  )
  return router
}

const titles = () =>
  within(screen.getByRole('list', { name: 'My posts' }))
    .getAllByRole('heading')
    .map((heading) => heading.textContent)
const card = (title: string) => screen.findByRole('listitem', { name: title })

describe('MyPostsPage: the life of a post', () => {
  it("shows each post's state, and Mark filled or Relist where they apply", async () => {
    renderPage(() => jsonResponse(200, posts))
    const expected: Array<[string, string, boolean, boolean]> = [
      ['Move a piano', 'Live', true, false],
      ['Paint a fence', 'Expiring soon', true, true],
      ['Wash a car', 'Offline', true, false],
      ['Rake leaves', 'Expired', true, true],
      ['Fix a sink', 'Filled', false, true],
    ]
    for (const [title, state, fill, relist] of expected) {
      const item = await card(title)
      expect(item).toHaveTextContent(state)
      expect(!!within(item).queryByRole('button', { name: `Mark ${title} filled` })).toBe(fill)
      expect(!!within(item).queryByRole('button', { name: `Relist ${title}` })).toBe(relist)
    }
    expect(await card('Paint a fence')).toHaveTextContent('last day 2026-12-01')
  })

  it('filters by state, and Reset Filters shows every post again', async () => {
    const user = userEvent.setup()
    renderPage(() => jsonResponse(200, posts))
    await card('Fix a sink')
    const state = screen.getByLabelText('State')
    for (const [value, title] of [
      ['live', 'Move a piano'],
      ['expiring-soon', 'Paint a fence'],
      ['offline', 'Wash a car'],
      ['expired', 'Rake leaves'],
      ['filled', 'Fix a sink'],
    ] as const) {
      await user.selectOptions(state, value)
      expect(titles()).toEqual([title])
    }
    await user.click(screen.getByRole('button', { name: 'Reset Filters' }))
    expect(titles()).toHaveLength(5)
  })

  it('Mark filled asks first, then posts to the fill route and says what happened', async () => {
    const user = userEvent.setup()
    const calls: string[] = []
    renderPage((url, request) => {
      if (request.method === 'POST') {
        calls.push(url)
        return jsonResponse(200, { ...posts[0], state: 'filled' })
      }
      return jsonResponse(200, posts)
    })
    await user.click(await screen.findByRole('button', { name: 'Mark Move a piano filled' }))
    const dialog = screen.getByRole('dialog', { name: 'Mark filled' })
    expect(dialog).toHaveTextContent('those still waiting are told')
    await user.click(within(dialog).getByRole('button', { name: 'Mark filled' }))
    await waitFor(() => expect(calls).toEqual(['/api/jobs/p1/fill']))
    expect(await screen.findByRole('status')).toHaveTextContent(Messages.post.filled)
  })

  it("the warning's relist link opens the relist, one click from done", async () => {
    const user = userEvent.setup()
    const calls: string[] = []
    const router = renderPage((url, request) => {
      if (request.method === 'POST') {
        calls.push(url)
        return jsonResponse(200, { ...posts[1], state: 'live' })
      }
      return jsonResponse(200, posts)
    }, '/settings-employer-jobs?relist=p2')
    const dialog = await screen.findByRole('dialog', { name: 'Relist for 30 days' })
    expect(dialog).toHaveTextContent('Relist "Paint a fence"?')
    // The link is used once: a reload does not ask again.
    expect(router.state.location.search).toBe('')
    await user.click(within(dialog).getByRole('button', { name: 'Relist for 30 days' }))
    await waitFor(() => expect(calls).toEqual(['/api/jobs/p2/relist']))
    expect(await screen.findByRole('status')).toHaveTextContent(Messages.post.relisted)
  })

  it("shows the server's reason when a relist is refused (once a day)", async () => {
    const user = userEvent.setup()
    const reason = Messages.post.relistTooSoon('2026-11-30 02:41 UTC')
    renderPage((_url, request) =>
      request.method === 'POST'
        ? jsonResponse(429, { message: reason, code: 'TOO_MANY_REQUESTS' })
        : jsonResponse(200, posts),
    )
    await user.click(await screen.findByRole('button', { name: 'Relist Fix a sink' }))
    const dialog = screen.getByRole('dialog', { name: 'Relist for 30 days' })
    await user.click(within(dialog).getByRole('button', { name: 'Relist for 30 days' }))
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(reason)
  })
})
