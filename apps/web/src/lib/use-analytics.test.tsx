import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode } from 'react'
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router-dom'
import { usePageViews, useTrackOnMount } from '@/lib/use-analytics'
import { recordAnalytics } from '@/test/analytics'

function Shell() {
  usePageViews()
  return (
    <>
      <Link to="/about">About</Link>
      <Link to="/help?q=private">Help</Link>
      <Outlet />
    </>
  )
}

function Help() {
  useTrackOnMount('help_viewed')
  return <p>help page</p>
}

/** Under StrictMode, as main.tsx renders the app: effects run twice per mount. */
function renderStrict(at: string) {
  const router = createMemoryRouter(
    [
      {
        element: <Shell />,
        children: [
          { path: '/', element: <p>home page</p> },
          { path: '/about', element: <p>about page</p> },
          { path: '/help', element: <Help /> },
        ],
      },
    ],
    { initialEntries: [at] },
  )
  render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  )
  return router
}

describe('page views and shown pages', () => {
  let analytics: ReturnType<typeof recordAnalytics>
  beforeEach(() => {
    analytics = recordAnalytics()
  })
  afterEach(() => analytics.stop())

  const sent = () => analytics.events().map((event) => [event.name, event.path])

  it('sends one page_view per navigation with the pathname only, once under StrictMode', async () => {
    const user = userEvent.setup()
    const router = renderStrict('/')
    expect(sent()).toEqual([['page_view', '/']])
    await user.click(screen.getByRole('link', { name: 'About' }))
    expect(await screen.findByText('about page')).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Help' }))
    expect(await screen.findByText('help page')).toBeInTheDocument()
    await act(() => router.navigate(-1))
    // The page's own effect runs before the shell's. (help_viewed takes its path from
    // window.location, which a memory router leaves at '/'.)
    expect(sent()).toEqual([
      ['page_view', '/'],
      ['page_view', '/about'],
      ['help_viewed', '/'],
      ['page_view', '/help'],
      ['page_view', '/about'],
    ])
    expect(analytics.events().every((event) => event.props === undefined)).toBe(true)
  })

  it('sends help_viewed once when the help page is shown', () => {
    renderStrict('/help')
    expect(analytics.events().filter((event) => event.name === 'help_viewed')).toHaveLength(1)
  })
})
