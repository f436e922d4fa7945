import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import FeedToolbar from '@/features/feed/FeedToolbar'
import HomePage from '@/features/feed/HomePage'
import { PersonCard } from '@/features/feed/PersonCard'
import { PostCard } from '@/features/feed/PostCard'
import { distanceText } from '@/features/feed/distance'
import { feedParams, feedQueryOf } from '@/features/feed/feed-api'
import { feedActions } from '@/features/feed/feed-slice'
import { makePerson, makePost, me, renderWithStore, signIn, stubFetch } from '@/test/feed-helpers'
import { jsonResponse } from '@/test/helpers'

describe('the Within control', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => fetchStub?.restore())

  it('asks for posts within the chosen miles of a typed place, and offers Nearest', async () => {
    const { store } = renderWithStore(<FeedToolbar />)
    const distance = screen.getByRole('form', { name: 'Distance' })
    expect(within(distance).getByLabelText('Within')).toHaveValue('any')
    expect(screen.queryByRole('option', { name: 'Nearest' })).not.toBeInTheDocument()

    await userEvent.type(within(distance).getByLabelText('Of place'), 'Austin, TX{Enter}')
    expect(store.getState().feed).toMatchObject({ near: 'Austin, TX', within: 25, page: 1 })
    await userEvent.selectOptions(within(distance).getByLabelText('Within'), '10 mi')
    expect(store.getState().feed).toMatchObject({ near: 'Austin, TX', within: 10 })

    await userEvent.selectOptions(screen.getByLabelText('Sort'), 'Nearest')
    expect(store.getState().feed.sort).toBe('distance')
    expect(feedParams(feedQueryOf(store.getState().feed))).toMatchObject({
      near: 'Austin, TX',
      within: '10',
      sort: 'distance',
    })

    // Any distance drops the place, and Nearest with it.
    await userEvent.selectOptions(within(distance).getByLabelText('Within'), 'Any distance')
    expect(store.getState().feed).toMatchObject({ near: '', sort: 'desc' })
    const params = feedParams(feedQueryOf(store.getState().feed))
    expect(params.near).toBeUndefined()
    expect(params.within).toBeUndefined()
  })

  it('starts from a signed-in user’s home place until they choose another', async () => {
    fetchStub = stubFetch((url) =>
      url.pathname === `/api/users/${me._id}`
        ? jsonResponse(200, { ...makePerson({ _id: me._id }), homePlace: 'Round Rock, TX' })
        : jsonResponse(404, { message: 'not stubbed' }),
    )
    const store = createStore()
    signIn(store)
    renderWithStore(<FeedToolbar />, { store })
    expect(await screen.findByDisplayValue('Round Rock, TX')).toBeInTheDocument()
    expect(store.getState().feed).toMatchObject({ near: 'Round Rock, TX', within: 25 })
    await userEvent.selectOptions(screen.getByLabelText('Within'), 'Any distance')
    expect(store.getState().feed.near).toBe('')
    store.dispatch(feedActions.homePlaceKnown('Round Rock, TX'))
    expect(store.getState().feed.near).toBe('')
  })

  it('Reset Filters clears the place', async () => {
    const store = createStore()
    store.dispatch(feedActions.nearSelected({ near: '78701', within: 50 }))
    renderWithStore(<FeedToolbar />, { store })
    expect(screen.getByLabelText('Of place')).toHaveValue('78701')
    await userEvent.click(screen.getByRole('button', { name: 'Reset Filters' }))
    expect(store.getState().feed.near).toBe('')
    expect(screen.getByLabelText('Of place')).toHaveValue('')
  })

  it('sends near and within to the feed and says when the place is unknown', async () => {
    const asked: URL[] = []
    fetchStub = stubFetch((url) => {
      asked.push(url)
      return jsonResponse(400, {
        code: 'UNKNOWN_PLACE',
        message:
          'We don\'t know the place "Atlantis". Try a town and state, like "Austin, TX", or a US ZIP code.',
      })
    })
    const store = createStore()
    store.dispatch(feedActions.nearSelected({ near: 'Atlantis', within: 5 }))
    renderWithStore(<HomePage />, { store })
    expect(await screen.findByText(/We don't know the place "Atlantis"/)).toBeInTheDocument()
    expect(asked[0]?.searchParams.get('near')).toBe('Atlantis')
    expect(asked[0]?.searchParams.get('within')).toBe('5')
  })
})

describe('distances on cards', () => {
  it('shows how far a post is, "about" when the location is private', () => {
    renderWithStore(
      <PostCard post={makePost({ title: 'Near', distanceMiles: 3.2 })} layout="grid" />,
    )
    expect(screen.getByText('3.2 mi away')).toBeInTheDocument()
  })

  it('says "about" for a rounded distance and nothing without one', () => {
    renderWithStore(
      <>
        <PostCard
          post={makePost({
            title: 'Private',
            location: null,
            distanceMiles: 15,
            distanceRounded: true,
          })}
          layout="grid"
        />
        <PostCard post={makePost({ title: 'Anywhere' })} layout="grid" />
      </>,
    )
    expect(screen.getByText('about 15 mi away')).toBeInTheDocument()
    const anywhere = screen.getByRole('article', { name: 'Anywhere' })
    expect(within(anywhere).queryByText(/mi away/)).not.toBeInTheDocument()
  })

  it('shows how far a worker is', () => {
    renderWithStore(<PersonCard person={makePerson({ distanceMiles: 12 })} layout="list" />)
    expect(screen.getByText('12 mi away')).toBeInTheDocument()
  })

  it('words distances for people', () => {
    expect(distanceText(0)).toBe('less than a mile away')
    expect(distanceText(0.4)).toBe('less than a mile away')
    expect(distanceText(3.25)).toBe('3.3 mi away')
    expect(distanceText(5, true)).toBe('about 5 mi away')
  })
})
