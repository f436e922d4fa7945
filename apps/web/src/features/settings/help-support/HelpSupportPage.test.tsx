import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import HelpSupportPage from '@/features/settings/help-support/HelpSupportPage'
import { renderPage } from '@/features/settings/account/settings-test-helpers'
import { jsonResponse, stubFetch } from '@/test/helpers'

describe('help and support page', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('does nothing for an empty message', async () => {
    const calls: string[] = []
    fetchStub = stubFetch((path) => {
      calls.push(path)
      return jsonResponse(200, {})
    })
    renderPage(<HelpSupportPage />)
    expect(screen.getByLabelText('Write to us')).toHaveAttribute('rows', '25')
    await userEvent.type(screen.getByLabelText('Write to us'), '   ')
    await userEvent.click(screen.getByRole('button', { name: 'Send your message to us' }))
    expect(calls).toHaveLength(0)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it("sends from the user's address, clears the field and shows 'Message sent!'", async () => {
    let sent: unknown = null
    fetchStub = stubFetch(async (_path, request) => {
      sent = await request.json()
      return jsonResponse(200, { message: 'ok' })
    })
    renderPage(<HelpSupportPage />)
    await userEvent.type(screen.getByLabelText('Write to us'), 'I need help')
    await userEvent.click(screen.getByRole('button', { name: 'Send your message to us' }))
    const dialog = await screen.findByRole('dialog', { name: 'Message sent!' })
    expect(dialog).toHaveTextContent(
      'We will review your message ASAP and get back to you on the matter you expressed there.',
    )
    expect(sent).toEqual({ email: 'ava@example.test', message: 'I need help' })
    expect(screen.getByLabelText('Write to us')).toHaveValue('')
  })
})
