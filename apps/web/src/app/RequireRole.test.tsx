import { render, screen } from '@testing-library/react'
import { Provider } from 'react-redux'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { RequireRole } from '@/app/RequireRole'
import { createStore } from '@/app/store'
import { credentialsReceived } from '@/lib/auth-slice'

describe('RequireRole', () => {
  const renderAt = (roles: string[] | null) => {
    const store = createStore()
    if (roles) {
      store.dispatch(
        credentialsReceived({
          accessToken: 'token',
          user: {
            _id: 'u1',
            firstName: 'Ava',
            lastName: 'Turner',
            email: 'ava@example.test',
            phoneNumber: '',
            isWorker: false,
            roles,
          },
        }),
      )
    }
    const router = createMemoryRouter(
      [
        {
          path: '/settings-account',
          element: (
            <RequireRole roles={['2000']}>
              <p>account page</p>
            </RequireRole>
          ),
        },
        { path: '/login', element: <p>login page</p> },
        { path: '/unauthorized', element: <p>unauthorized page</p> },
      ],
      { initialEntries: ['/settings-account'] },
    )
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    )
    return router
  }

  it('sends a guest to /login, remembering where they were going', () => {
    const router = renderAt(null)
    expect(screen.getByText('login page')).toBeInTheDocument()
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/settings-account' } })
  })

  it('sends a signed-in user without the role to /unauthorized', () => {
    renderAt(['2001'])
    expect(screen.getByText('unauthorized page')).toBeInTheDocument()
  })

  it('shows the page to a user with the role', () => {
    renderAt(['2000'])
    expect(screen.getByText('account page')).toBeInTheDocument()
  })
})
