import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import HelpSupportPage from '@/features/settings/help-support/HelpSupportPage'
import { renderPage } from '@/test/settings-helpers'
import { recordAnalytics } from '@/test/analytics'
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

  describe('analytics', () => {
    let analytics: ReturnType<typeof recordAnalytics>
    beforeEach(() => {
      analytics = recordAnalytics()
    })
    afterEach(() => analytics.stop())

    const sendMessage = async (text: string) => {
      await userEvent.type(screen.getByLabelText('Write to us'), text)
      await userEvent.click(screen.getByRole('button', { name: 'Send your message to us' }))
    }

    it('reports help_viewed when shown and support_ticket_created once sent, without the text', async () => {
      fetchStub = stubFetch(() => jsonResponse(200, { message: 'ok' }))
      renderPage(<HelpSupportPage />)
      await sendMessage('My secret problem')
      await screen.findByRole('dialog', { name: 'Message sent!' })
      const events = analytics.events()
      expect(events.map((event) => [event.name, event.props])).toEqual([
        ['help_viewed', undefined],
        ['support_ticket_created', { channel: 'support' }],
      ])
      const payload = JSON.stringify(events)
      expect(payload).not.toContain('My secret problem')
      expect(payload).not.toContain('ava@example.test')
      expect(payload).not.toContain('u1')
    })

    it('reports support_ticket_failed with the HTTP status of a refusal', async () => {
      jest.spyOn(console, 'error').mockImplementation(() => {})
      fetchStub = stubFetch(() => jsonResponse(503, { message: 'Mail is down' }))
      renderPage(<HelpSupportPage />)
      await sendMessage('I need help')
      await screen.findByRole('alert')
      expect(analytics.events().filter((event) => event.name !== 'help_viewed')).toEqual([
        expect.objectContaining({
          name: 'support_ticket_failed',
          props: { channel: 'support', status: 503 },
        }),
      ])
      jest.mocked(console.error).mockRestore()
    })

    it('reports support_ticket_failed without a status when the network fails', async () => {
      jest.spyOn(console, 'error').mockImplementation(() => {})
      fetchStub = stubFetch(() => Promise.reject(new TypeError('Failed to fetch')))
      renderPage(<HelpSupportPage />)
      await sendMessage('I need help')
      await screen.findByRole('alert')
      expect(analytics.events().map((event) => [event.name, event.props])).toEqual([
        ['help_viewed', undefined],
        ['support_ticket_failed', { channel: 'support' }],
      ])
      jest.mocked(console.error).mockRestore()
    })
  })
})
