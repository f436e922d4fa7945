import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { PersonCard } from '@/features/feed/PersonCard'
import { ratingText } from '@/lib/person-display'
import { HIDDEN_LOCATION_HINT, PostCard } from '@/features/feed/PostCard'
import { makePerson, makePost, me, renderWithStore, signIn } from '@/test/feed-helpers'
import { openModalOf } from '@/test/modal-helpers'

describe('PostCard', () => {
  it('shows no request button to the owner of the post', () => {
    const store = createStore()
    signIn(store)
    renderWithStore(<PostCard post={makePost({ userID: me._id })} layout="grid" />, { store })
    expect(screen.getByRole('button', { name: 'Details' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Send request' })).not.toBeInTheDocument()
  })

  it('opens the request modal for another user’s post', async () => {
    const store = createStore()
    signIn(store)
    const post = makePost({ userID: 'someone-else' })
    renderWithStore(<PostCard post={post} layout="list" />, { store })
    await userEvent.click(screen.getByRole('button', { name: 'Send request' }))
    expect(openModalOf(store)).toEqual({ kind: 'requestPost', post })
  })

  it('opens the details modal and uses the placeholder without a picture', async () => {
    const post = makePost()
    const { store, container } = renderWithStore(<PostCard post={post} layout="grid" />)
    expect(container.querySelector('img')).toHaveAttribute('src', '/images/no-image.svg')
    await userEvent.click(screen.getByRole('button', { name: 'Details' }))
    expect(openModalOf(store)).toEqual({ kind: 'postDetails', post })
  })

  it('masks a hidden location with a hint', () => {
    renderWithStore(<PostCard post={makePost({ location: null })} layout="grid" />)
    expect(screen.getByText(HIDDEN_LOCATION_HINT)).toBeInTheDocument()
  })
})

describe('PersonCard', () => {
  it('offers "Request {firstname}" and shows the rating', async () => {
    const person = makePerson({ rating: { average: 4.46, count: 12 } })
    const { store } = renderWithStore(<PersonCard person={person} layout="grid" />)
    expect(screen.getByText('Noah Lee')).toBeInTheDocument()
    expect(screen.getByText('★ 4.5 (12)')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Request Noah' }))
    expect(openModalOf(store)).toEqual({ kind: 'requestPerson', person })
  })

  it('hides the request button on the signed-in user’s own card', () => {
    const store = createStore()
    signIn(store)
    renderWithStore(
      <PersonCard person={makePerson({ _id: me._id, firstName: 'Ava' })} layout="grid" />,
      {
        store,
      },
    )
    expect(screen.queryByRole('button', { name: /^Request/ })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Details' })).toBeInTheDocument()
  })

  it('shows no rating before anyone rated', () => {
    expect(ratingText(undefined)).toBeNull()
    expect(ratingText({ average: null, count: 0 })).toBeNull()
  })
})
