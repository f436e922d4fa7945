import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { jsonResponse, renderRoutes, signIn, stubFetch, withRenewal } from '@/test/helpers'
import type { JobPost } from '@marketplace/contracts/api'
import type { ShownPerson } from '@/lib/entities-api'
import { openModalOf } from '@/test/modal-helpers'
import FavoritePeoplePage from './FavoritePeoplePage'
import FavoritePostsPage from './FavoritePostsPage'

const person: ShownPerson = {
  _id: 'w1',
  firstName: 'Leo',
  lastName: 'Worker',
  name: 'Leo Worker',
  age: 30,
  isWorker: true,
  title: 'Mover',
  skills: ['Lifting', 'Driving'],
  availability: 'Weekends',
  paymentType: 'Cash',
  location: 'Springfield',
  infos: '',
  contacts: [],
  profilePicture: null,
  isOnline: true,
  category: null,
}

const post = (id: string, title: string): JobPost => ({
  _id: id,
  jobID: id,
  userID: 'o1',
  title,
  location: null,
  jobStartEnd: '',
  salary: '',
  paymentType: [],
  contact: null,
  infos: '',
  displayLocation: false,
  displayContact: false,
  jobPicture: null,
  category: 'Moving',
  isOnline: true,
  expirationDate: null,
  authorizedUsers: [],
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
})

let fetchStub: ReturnType<typeof stubFetch> | null = null
afterEach(() => fetchStub?.restore())

function renderPage(
  page: React.ReactElement,
  handler: Parameters<typeof stubFetch>[0],
  signedIn = true,
) {
  fetchStub = stubFetch(handler)
  const store = createStore()
  if (signedIn) signIn(store)
  return renderRoutes([{ path: '/f', element: page }], { at: '/f', store })
}

describe('FavoritePeoplePage', () => {
  it('shows the full name and skills joined with " - "', async () => {
    renderPage(<FavoritePeoplePage />, () =>
      jsonResponse(200, [{ favoriteID: person, personID: 'w1', createdAt: '', updatedAt: '' }]),
    )
    const card = await screen.findByRole('listitem', { name: 'Leo Worker' })
    expect(card).toHaveTextContent('Lifting - Driving')
    expect(within(card).getByRole('button', { name: 'Request' })).toBeInTheDocument()
  })

  it('Remove asks with the first and last name, then removes the person', async () => {
    const user = userEvent.setup()
    const deleted: string[] = []
    renderPage(<FavoritePeoplePage />, (url, req) => {
      if (req.method === 'DELETE') {
        deleted.push(url)
        return new Response(null, { status: 204 })
      }
      return jsonResponse(200, [
        { favoriteID: person, personID: 'w1', createdAt: '', updatedAt: '' },
      ])
    })
    await user.click(await screen.findByRole('button', { name: 'Remove' }))
    const dialog = screen.getByRole('dialog', { name: 'Remove from Favorites' })
    expect(dialog).toHaveTextContent(
      'Are you sure you want to remove "Leo Worker" from your favorites?',
    )
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(deleted).toEqual(['/api/favorites/people/u1/w1']))
  })

  it('says when the list is empty, cannot load, or nobody is signed in', async () => {
    renderPage(<FavoritePeoplePage />, () => jsonResponse(200, []))
    expect(
      await screen.findByText('You have not added any people to your favorites yet'),
    ).toBeInTheDocument()
    fetchStub?.restore()
    renderPage(
      <FavoritePeoplePage />,
      withRenewal(() => jsonResponse(403, {})),
    )
    expect(await screen.findByText('Error loading favorite workers')).toBeInTheDocument()
    fetchStub?.restore()
    renderPage(<FavoritePeoplePage />, () => jsonResponse(200, []), false)
    expect(screen.getByText('Please log in to view your favorite workers')).toBeInTheDocument()
  })
})

describe('FavoritePostsPage', () => {
  const entries = [
    {
      favoriteID: post('p1', 'Move a piano'),
      createdAt: '2026-01-01T10:00:00.000Z',
      updatedAt: '',
    },
    {
      favoriteID: post('p2', 'Paint a fence'),
      createdAt: '2026-01-04T10:00:00.000Z',
      updatedAt: '',
    },
  ]
  const titles = () =>
    within(screen.getByRole('list', { name: 'Favorite posts' }))
      .getAllByRole('heading')
      .map((heading) => heading.textContent)

  it('lists the last saved first; Oldest reverses it', async () => {
    renderPage(<FavoritePostsPage />, () => jsonResponse(200, entries))
    await screen.findByText('Move a piano')
    expect(titles()).toEqual(['Paint a fence', 'Move a piano'])
    await userEvent.setup().selectOptions(screen.getByLabelText('Sort'), 'oldest')
    expect(titles()).toEqual(['Move a piano', 'Paint a fence'])
  })

  it('the remove icon asks with the title', async () => {
    const user = userEvent.setup()
    renderPage(<FavoritePostsPage />, () => jsonResponse(200, entries))
    await user.click(
      await screen.findByRole('button', { name: 'Remove Move a piano from favorites' }),
    )
    expect(screen.getByRole('dialog', { name: 'Remove from Favorites' })).toHaveTextContent(
      'Are you sure you want to remove "Move a piano" from your favorites?',
    )
  })

  it('Send request opens the request modal of the post', async () => {
    const user = userEvent.setup()
    const { store } = renderPage(<FavoritePostsPage />, () => jsonResponse(200, entries))
    const card = await screen.findByRole('listitem', { name: 'Move a piano' })
    await user.click(within(card).getByRole('button', { name: 'Send request' }))
    expect(openModalOf(store)).toEqual({ kind: 'requestPost', post: entries[0]?.favoriteID })
  })

  it('shows its empty, error and signed-out texts', async () => {
    renderPage(<FavoritePostsPage />, () => jsonResponse(200, []))
    expect(
      await screen.findByText("You haven't saved any posts to your favorites yet."),
    ).toBeInTheDocument()
    fetchStub?.restore()
    renderPage(
      <FavoritePostsPage />,
      withRenewal(() => jsonResponse(403, {})),
    )
    expect(await screen.findByText('Error loading favorite posts')).toBeInTheDocument()
    fetchStub?.restore()
    renderPage(<FavoritePostsPage />, () => jsonResponse(200, []), false)
    expect(screen.getByText('Please log in to view your favorite posts')).toBeInTheDocument()
  })
})
