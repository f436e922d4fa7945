import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import NotFoundPage from '@/app/shell/NotFoundPage'
import RouteError from '@/app/shell/RouteError'
import UnauthorizedPage from '@/app/shell/UnauthorizedPage'
import { recordAnalytics } from '@/test/analytics'
import { renderRoutes } from '@/test/helpers'

describe('UnauthorizedPage', () => {
  it('explains the refusal and "Return to Home" goes home', async () => {
    renderRoutes(
      [
        { path: '/unauthorized', element: <UnauthorizedPage /> },
        { path: '/', element: <p>home page</p> },
      ],
      { at: '/unauthorized' },
    )
    expect(screen.getByRole('heading', { name: 'Unauthorized Access' })).toBeInTheDocument()
    expect(screen.getByText(/do not have permission/)).toBeInTheDocument()
    await userEvent.setup().click(screen.getByRole('button', { name: 'Return to Home' }))
    expect(screen.getByText('home page')).toBeInTheDocument()
  })
})

describe('NotFoundPage', () => {
  it('links home', () => {
    renderRoutes([{ path: '*', element: <NotFoundPage /> }], { at: '/nowhere' })
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/')
  })
})

describe('RouteError', () => {
  function Broken(): never {
    throw new RangeError('bad page')
  }

  it('shows "Something went wrong" and reports the failure to analytics once', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {})
    const analytics = recordAnalytics()
    try {
      renderRoutes([{ path: '/broken', element: <Broken />, errorElement: <RouteError /> }], {
        at: '/broken',
      })
      expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument()
      expect(analytics.events()).toEqual([
        expect.objectContaining({
          name: 'client_error',
          props: expect.objectContaining({
            message: 'bad page',
            name: 'RangeError',
            type: 'render',
          }),
        }),
      ])
    } finally {
      analytics.stop()
      jest.mocked(console.error).mockRestore()
    }
  })

  it('does not report a 404, which is a wrong address', () => {
    jest.spyOn(console, 'error').mockImplementation(() => {})
    const analytics = recordAnalytics()
    try {
      renderRoutes([{ path: '/', element: <p>home</p>, errorElement: <RouteError /> }], {
        at: '/nowhere',
      })
      expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
      expect(analytics.events()).toEqual([])
    } finally {
      analytics.stop()
      jest.mocked(console.error).mockRestore()
    }
  })
})
