import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { modalOpened } from '@/app/ui-slice'
import ModalHost from '@/app/modals/ModalHost'
import { renderModal, samplePerson, samplePost } from '@/test/modal-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

describe('ModalHost', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  beforeEach(() => {
    fetchStub = stubFetch(() => jsonResponse(200, []))
  })
  afterEach(() => fetchStub?.restore())

  it('renders nothing while no modal is open', () => {
    renderModal(<ModalHost />)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it.each([
    [{ kind: 'addPost' } as const, 'Add a post'],
    [{ kind: 'postDetails', post: samplePost } as const, 'Paint my fence'],
    [{ kind: 'workerDetails', person: samplePerson } as const, 'Wes Worker'],
    [{ kind: 'requestPost', post: samplePost } as const, 'Send a request: Paint my fence'],
    [{ kind: 'requestPerson', person: samplePerson } as const, 'Request Wes Worker'],
    [{ kind: 'reportPost', post: samplePost } as const, 'Report post'],
    [{ kind: 'reportPerson', person: samplePerson } as const, 'Report person'],
    [{ kind: 'profileRequired' } as const, 'Profile Required'],
  ])('opens the %o modal', async (modal, title) => {
    const { store } = renderModal(<ModalHost />)
    act(() => {
      store.dispatch(modalOpened(modal))
    })
    expect(await screen.findByRole('dialog', { name: title })).toBeInTheDocument()
  })

  it('closes with the close button', async () => {
    const { store } = renderModal(<ModalHost />)
    act(() => {
      store.dispatch(modalOpened({ kind: 'reportPost', post: samplePost }))
    })
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }))
    expect(store.getState().ui.modal).toBeNull()
    expect(screen.queryByRole('dialog')).toBeNull()
  })
})
