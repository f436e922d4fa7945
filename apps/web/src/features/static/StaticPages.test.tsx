import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import AboutPage from '@/features/static/AboutPage'
import ContactUsPage from '@/features/static/ContactUsPage'
import HelpPage from '@/features/static/HelpPage'
import TermsPage from '@/features/static/TermsPage'
import { renderPage } from '@/test/settings-helpers'
import { recordAnalytics } from '@/test/analytics'
import { jsonResponse, stubFetch } from '@/test/helpers'

/** Every "#id" link of the contents points at an element that exists. */
function expectContentsToResolve() {
  const contents = screen.getByRole('navigation', { name: 'Table of contents' })
  const links = within(contents).getAllByRole('link')
  for (const link of links) {
    const id = (link.getAttribute('href') ?? '').replace(/^#/, '')
    expect(document.getElementById(id)).not.toBeNull()
  }
  return links.map((link) => link.textContent)
}

describe('static pages', () => {
  let fetchStub: ReturnType<typeof stubFetch> | null = null
  afterEach(() => {
    fetchStub?.restore()
    fetchStub = null
  })

  it('help: every contents entry links to a section that exists', () => {
    renderPage(<HelpPage />, { user: null, path: '/help' })
    expect(expectContentsToResolve()).toEqual([
      'Getting Started',
      'Common Actions',
      'Frequently Asked Questions',
      'Troubleshooting',
      'Contact Support',
      'Safety and Best Practices',
    ])
    expect(screen.getByText(/6-digit verification code/)).toBeInTheDocument()
  })

  it('help: names the controls the app really has', () => {
    const { container } = renderPage(<HelpPage />, { user: null, path: '/help' })
    expect(container.textContent).toContain('"Make a post" in the menu under your name')
    expect(container.textContent).not.toMatch(/"Add a post" button/)
    for (const [name, href] of [
      ['Posts I requested', '/settings-worker-job-requested'],
      ['Requests on my posts', '/settings-employer-requests'],
    ] as const) {
      const links = screen.getAllByRole('link', { name })
      expect(links.length).toBeGreaterThan(0)
      for (const link of links) expect(link.getAttribute('href')).toBe(href)
    }
  })

  it('help: in-page links in the text resolve too', () => {
    const { container } = renderPage(<HelpPage />, { user: null, path: '/help' })
    for (const link of container.querySelectorAll('a[href^="#"]')) {
      expect(document.getElementById(link.getAttribute('href')!.slice(1))).not.toBeNull()
    }
  })

  it('terms: six sections and the periods the system keeps', () => {
    renderPage(<TermsPage />, { user: null, path: '/terms' })
    expect(expectContentsToResolve()).toHaveLength(6)
    expect(screen.getByText(/30-day grace period/)).toBeInTheDocument()
    expect(screen.getByText(/deleted within 30 days/)).toBeInTheDocument()
    expect(screen.getByText(/appeal within 30 days/)).toBeInTheDocument()
    expect(screen.getByText(/30 days before they apply/)).toBeInTheDocument()
    expect(screen.getByText(/reviewed within 24 hours/)).toBeInTheDocument()
  })

  it('about: links to contact us and a business-inquiry mailto', () => {
    renderPage(<AboutPage />, { user: null, path: '/about' })
    expect(screen.getByRole('link', { name: 'Contact us' })).toHaveAttribute('href', '/contact-us')
    const mail = screen
      .getAllByRole('link')
      .find((link) => link.getAttribute('href')?.startsWith('mailto:'))
    expect(mail?.getAttribute('href')).toContain('subject=Business%20inquiry')
  })

  it('contact us: sends the email and message, clears the message and says it was sent', async () => {
    let sent: unknown = null
    fetchStub = stubFetch(async (_path, request) => {
      sent = await request.json()
      return jsonResponse(200, {
        message:
          'We will review your message ASAP and get back to you on the matter you expressed there.',
      })
    })
    renderPage(<ContactUsPage />, { user: null, path: '/contact-us' })
    expect(screen.getByLabelText('Your message')).toHaveAttribute('rows', '25')
    await userEvent.type(screen.getByLabelText('Your email'), 'guest@example.test')
    await userEvent.type(screen.getByLabelText('Your message'), 'Hello there')
    await userEvent.click(screen.getByRole('button', { name: 'Send your message to us' }))
    expect(await screen.findByRole('status')).toHaveTextContent(/We will review your message ASAP/)
    expect(sent).toEqual({ email: 'guest@example.test', message: 'Hello there' })
    expect(screen.getByLabelText('Your message')).toHaveValue('')
  })

  it('contact us: an empty message sends nothing; a rate limit is shown', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {})
    const calls: string[] = []
    fetchStub = stubFetch((path) => {
      calls.push(path)
      return jsonResponse(429, {
        message: 'You have sent several messages in a short time. Please try again in 5 minutes.',
      })
    })
    renderPage(<ContactUsPage />, { user: null, path: '/contact-us' })
    await userEvent.click(screen.getByRole('button', { name: 'Send your message to us' }))
    expect(calls).toHaveLength(0)
    await userEvent.hover(screen.getByRole('button', { name: 'How we answer' }))
    expect(screen.getByRole('tooltip')).toBeVisible()
    await userEvent.type(screen.getByLabelText('Your email'), 'guest@example.test')
    await userEvent.type(screen.getByLabelText('Your message'), 'Hello')
    await userEvent.click(screen.getByRole('button', { name: 'Send your message to us' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(/several messages/)
    expect(screen.getByLabelText('Your message')).toHaveValue('Hello')
    expect(logged).toHaveBeenCalled()
    logged.mockRestore()
  })

  describe('analytics', () => {
    let analytics: ReturnType<typeof recordAnalytics>
    beforeEach(() => {
      analytics = recordAnalytics()
    })
    afterEach(() => analytics.stop())

    const sendContact = async () => {
      await userEvent.type(screen.getByLabelText('Your email'), 'guest@example.test')
      await userEvent.type(screen.getByLabelText('Your message'), 'Hello there')
      await userEvent.click(screen.getByRole('button', { name: 'Send your message to us' }))
    }

    it('help: reports help_viewed once', () => {
      renderPage(<HelpPage />, { user: null, path: '/help' })
      expect(analytics.events().map((event) => event.name)).toEqual(['help_viewed'])
    })

    it('contact us: reports support_ticket_created with the contact channel only', async () => {
      fetchStub = stubFetch(() => jsonResponse(200, { message: 'Thanks' }))
      renderPage(<ContactUsPage />, { user: null, path: '/contact-us' })
      await sendContact()
      await screen.findByRole('status')
      const events = analytics.events()
      expect(events).toEqual([
        expect.objectContaining({
          name: 'support_ticket_created',
          props: { channel: 'contact' },
        }),
      ])
      expect(JSON.stringify(events)).not.toMatch(/guest@example|Hello there/)
    })

    it('contact us: reports support_ticket_failed with the status of a rate limit', async () => {
      jest.spyOn(console, 'error').mockImplementation(() => {})
      fetchStub = stubFetch(() => jsonResponse(429, { message: 'Too many' }))
      renderPage(<ContactUsPage />, { user: null, path: '/contact-us' })
      await sendContact()
      await screen.findByRole('alert')
      expect(analytics.events()).toEqual([
        expect.objectContaining({
          name: 'support_ticket_failed',
          props: { channel: 'contact', status: 429 },
        }),
      ])
      jest.mocked(console.error).mockRestore()
    })
  })
})
