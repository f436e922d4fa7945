import { fireEvent, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createStore } from '@/app/store'
import { PersonCard } from '@/features/feed/PersonCard'
import { ratingText } from '@/lib/person-display'
import { HIDDEN_LOCATION_HINT, PostCard } from '@/features/feed/PostCard'
import { makePerson, makePost, me, renderWithStore, signIn } from '@/test/feed-helpers'
import { openModalOf } from '@/test/modal-helpers'
import { GRID_CARD_SIZES } from '@/lib/images'
import { decorativeIcon, isFilled } from '@/test/icons'

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

  it('asks for the picture sized for its box: w480 or w960, WebP first, never the original', () => {
    const key = 'jobImages/u2/sofa.jpg'
    const { container } = renderWithStore(
      <PostCard post={makePost({ jobPicture: key })} layout="grid" />,
    )
    const img = container.querySelector('img')!
    expect(container.querySelector('source')).toHaveAttribute(
      'srcset',
      '/jobImages/u2/sofa.w480.webp 480w, /jobImages/u2/sofa.w960.webp 960w',
    )
    expect(container.querySelector('source')).toHaveAttribute('sizes', GRID_CARD_SIZES)
    expect(img).toHaveAttribute(
      'srcset',
      '/jobImages/u2/sofa.w480.jpg 480w, /jobImages/u2/sofa.w960.jpg 960w',
    )
    expect(img).toHaveAttribute('src', '/jobImages/u2/sofa.w480.jpg')
    // The 4:3 box before the picture arrives, lazy and decoded off the main thread, as before.
    expect(img).toHaveClass('post-card-image')
    expect(img).toHaveAttribute('width', '400')
    expect(img).toHaveAttribute('height', '300')
    expect(img).toHaveAttribute('loading', 'lazy')
    expect(img).toHaveAttribute('decoding', 'async')
    // Not made yet: the original.
    fireEvent.error(img)
    expect(container.querySelector('img')).toHaveAttribute('src', `/${key}`)
  })

  it('sizes the list layout’s thumbnail', () => {
    const { container } = renderWithStore(
      <PostCard post={makePost({ jobPicture: 'jobImages/u2/sofa.png' })} layout="list" />,
    )
    expect(container.querySelector('img')).toHaveAttribute(
      'sizes',
      '(max-width: 768px) 110px, 160px',
    )
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
    const rating = screen.getByText('4.5 (12)')
    expect(rating).toHaveTextContent(/^Rated 4\.5 \(12\)$/)
    expect(isFilled(decorativeIcon(rating))).toBe(true)
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

  it('shows the default picture without one, and else the card sizes of the picture', () => {
    const { container, unmount } = renderWithStore(
      <PersonCard person={makePerson({ profilePicture: null })} layout="grid" />,
    )
    expect(container.querySelector('img')).toHaveAttribute('src', '/images/default-profile.svg')
    unmount()
    const withPicture = renderWithStore(
      <PersonCard person={makePerson({ profilePicture: 'userImages/u3/me.webp' })} layout="grid" />,
    )
    const img = withPicture.container.querySelector('img')!
    expect(img).toHaveAttribute('src', '/userImages/u3/me.w480.webp')
    expect(img).toHaveAttribute('sizes', GRID_CARD_SIZES)
    expect(img).toHaveAttribute('width', '400')
    // Neither the variant nor the original: the default picture.
    fireEvent.error(img)
    fireEvent.error(withPicture.container.querySelector('img')!)
    expect(withPicture.container.querySelector('img')).toHaveAttribute(
      'src',
      '/images/default-profile.svg',
    )
  })

  it('shows no rating before anyone rated', () => {
    expect(ratingText(undefined)).toBeNull()
    expect(ratingText({ average: null, count: 0 })).toBeNull()
  })
})
