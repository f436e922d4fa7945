import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { jsonResponse, renderRoutes, signIn, stubFetch } from '@/test/helpers'
import type { JobPost } from '@marketplace/contracts/api'
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
    paymentType: ['Cash', 'Zelle'],
    contact: 'Phone',
    infos: 'Third floor',
    displayLocation: false,
    displayContact: true,
    jobPicture: null,
    category: 'Moving',
    isOnline: true,
    expirationDate: null,
    authorizedUsers: [],
    createdAt: '2026-01-02T10:00:00.000Z',
    updatedAt: '2026-01-02T10:00:00.000Z',
    ...overrides,
  }
}

const posts = [
  samplePost(),
  samplePost({
    _id: 'p2',
    title: 'Paint a fence',
    isOnline: false,
    createdAt: '2026-01-05T10:00:00.000Z',
  }),
]

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

function renderPage(handler: Parameters<typeof stubFetch>[0]) {
  fetchStub = stubFetch(handler)
  const store = createStore()
  signIn(store)
  return renderRoutes([{ path: '/settings-employer-jobs', element: <MyPostsPage /> }], {
    at: '/settings-employer-jobs',
    store,
  })
}

const titles = () =>
  within(screen.getByRole('list', { name: 'My posts' }))
    .getAllByRole('heading')
    .map((heading) => heading.textContent)

describe('MyPostsPage', () => {
  it('lists the most recent post first and Oldest reverses the order', async () => {
    renderPage(() => jsonResponse(200, posts))
    expect(await screen.findByText('Paint a fence')).toBeInTheDocument()
    expect(titles()).toEqual(['Paint a fence', 'Move a piano'])
    await userEvent.setup().selectOptions(screen.getByLabelText('Sort'), 'oldest')
    expect(titles()).toEqual(['Move a piano', 'Paint a fence'])
  })

  it('the status filter keeps online or offline posts, and Reset Filters shows all again', async () => {
    const user = userEvent.setup()
    renderPage(() => jsonResponse(200, posts))
    await screen.findByText('Paint a fence')
    await user.selectOptions(screen.getByLabelText('Status'), 'offline')
    expect(titles()).toEqual(['Paint a fence'])
    await user.selectOptions(screen.getByLabelText('Status'), 'online')
    expect(titles()).toEqual(['Move a piano'])
    await user.click(screen.getByRole('button', { name: 'Reset Filters' }))
    expect(titles()).toHaveLength(2)
  })

  it('says how to start when there is no post', async () => {
    renderPage(() => jsonResponse(200, []))
    expect(
      await screen.findByText('No posts found. Click "Add a post" to create your first post.'),
    ).toBeInTheDocument()
  })

  it('a load failure shows the error text', async () => {
    renderPage(() => jsonResponse(403, { message: 'nope' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch jobs. Please try again later.',
    )
  })

  it('the Online/Offline switch sends isOnline alone', async () => {
    const bodies: unknown[] = []
    renderPage(async (url, request) => {
      if (request.method === 'PUT') {
        bodies.push(await request.json())
        return jsonResponse(200, samplePost({ isOnline: false }))
      }
      return jsonResponse(200, posts)
    })
    await userEvent
      .setup()
      .click(await screen.findByRole('switch', { name: 'Move a piano online' }))
    await waitFor(() => expect(bodies).toEqual([{ isOnline: false }]))
  })

  it('the delete icon asks with the title, and Delete deletes the post', async () => {
    const user = userEvent.setup()
    const deleted: string[] = []
    renderPage((url, request) => {
      if (request.method === 'DELETE') {
        deleted.push(url)
        return new Response(null, { status: 204 })
      }
      return jsonResponse(200, posts)
    })
    await user.click(await screen.findByRole('button', { name: 'Delete Move a piano' }))
    const dialog = screen.getByRole('dialog', { name: 'Delete Post' })
    expect(dialog).toHaveTextContent('Are you sure you want to delete "Move a piano"?')
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(deleted).toEqual(['/api/jobs/p1']))
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
  })

  it('Details offers Modify, which opens the modify form without the title field', async () => {
    const user = userEvent.setup()
    renderPage(() => jsonResponse(200, posts))
    const card = await screen.findByRole('listitem', { name: 'Move a piano' })
    await user.click(within(card).getByRole('button', { name: 'Details' }))
    const details = screen.getByRole('dialog', { name: 'Move a piano' })
    expect(within(details).getByRole('button', { name: 'Delete' })).toBeInTheDocument()
    await user.click(within(details).getByRole('button', { name: 'Modify' }))
    expect(screen.getByLabelText('Payment')).toHaveValue('Cash - Zelle')
    expect(screen.queryByLabelText('Title')).not.toBeInTheDocument()
  })
  it('tells the owner a moderator took a post down, and keeps its switch off', async () => {
    renderPage(() =>
      jsonResponse(200, [samplePost({ title: 'Odd offer', isOnline: false, takenDown: true })]),
    )
    const card = await screen.findByRole('listitem', { name: 'Odd offer' })
    expect(within(card).getByRole('note')).toHaveTextContent(
      'Removed by a moderator after a report.',
    )
    expect(within(card).getByRole('switch', { name: 'Odd offer online' })).toBeDisabled()
  })
})
