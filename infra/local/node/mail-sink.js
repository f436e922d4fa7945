// A real SMTP server (nodemailer's smtp-server) that keeps what it receives and answers a
// subset of Mailpit's REST API, so tests read mail the same way whether Mailpit or this
// sink runs. It replaces Mailpit here because the Go module proxy refuses Mailpit's module
// (docs/local-infrastructure.md). Messages live in memory: it is a sink, not a mailbox.
'use strict'
const http = require('node:http')
const { randomUUID } = require('node:crypto')
const { SMTPServer } = require('smtp-server')
const { simpleParser } = require('mailparser')

const smtpPort = Number(process.env.SMTP_PORT || 1025)
const apiPort = Number(process.env.MAIL_API_PORT || 8025)
const host = '127.0.0.1'
const MAX_MESSAGES = 5000
/** @type {Array<Record<string, any>>} newest first */
let messages = []

const addresses = (field) =>
  (field ? [].concat(field).flatMap((group) => group.value) : []).map((a) => ({
    Name: a.name || '',
    Address: (a.address || '').toLowerCase(),
  }))

const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  size: 10 * 1024 * 1024,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const envelopeTo = session.envelope.rcptTo.map((r) => ({
          Name: '',
          Address: r.address.toLowerCase(),
        }))
        messages.unshift({
          ID: randomUUID(),
          MessageID: mail.messageId || '',
          From: addresses(mail.from)[0] || {
            Name: '',
            Address: session.envelope.mailFrom && session.envelope.mailFrom.address,
          },
          To: addresses(mail.to).length ? addresses(mail.to) : envelopeTo,
          ReplyTo: addresses(mail.replyTo),
          Subject: mail.subject || '',
          Created: new Date().toISOString(),
          Text: mail.text || '',
          HTML: mail.html || '',
          Snippet: (mail.text || '').slice(0, 250),
        })
        messages = messages.slice(0, MAX_MESSAGES)
        callback()
      })
      .catch(callback)
  },
})

// smtp-server re-emits every connection's socket error on the server. Without a listener
// one client that drops mid-message (a service killed while sending, as the outage tests
// do) would throw it and take the sink down for every later test. Such an error ends that
// one connection only; the message it carried was never acknowledged, so nothing is lost.
smtp.on('error', (err) => {
  console.error(`mail sink: connection error (${err.code || err.message}); still serving`)
})

const summary = ({ Text, HTML, ...rest }) => rest

function matches(message, query) {
  // Mailpit's search syntax, the parts we use: to:addr, from:addr, subject:"words", plain words.
  const terms = query.match(/(\w+:"[^"]*"|\w+:\S+|"[^"]*"|\S+)/g) || []
  return terms.every((term) => {
    const [, key, raw] = term.match(/^(\w+):(.*)$/) || [null, null, term]
    const value = String(raw).replace(/^"|"$/g, '').toLowerCase()
    if (key === 'to') return message.To.some((a) => a.Address.includes(value))
    if (key === 'from') return message.From.Address.toLowerCase().includes(value)
    if (key === 'subject') return message.Subject.toLowerCase().includes(value)
    return `${message.Subject} ${message.Text}`.toLowerCase().includes(value)
  })
}

const api = http.createServer((req, res) => {
  const url = new URL(req.url, `http://${host}`)
  const send = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' })
    res.end(JSON.stringify(body))
  }
  if (req.method === 'GET' && url.pathname === '/livez') return send(200, { status: 'ok' })
  if (req.method === 'GET' && url.pathname === '/api/v1/messages') {
    return send(200, {
      total: messages.length,
      count: messages.length,
      messages: messages.map(summary),
    })
  }
  if (req.method === 'GET' && url.pathname === '/api/v1/search') {
    const found = messages.filter((m) => matches(m, url.searchParams.get('query') || ''))
    return send(200, {
      total: messages.length,
      messages_count: found.length,
      messages: found.map(summary),
    })
  }
  const one = url.pathname.match(/^\/api\/v1\/message\/([\w-]+)$/)
  if (req.method === 'GET' && one) {
    const message = one[1] === 'latest' ? messages[0] : messages.find((m) => m.ID === one[1])
    return message ? send(200, message) : send(404, { message: 'message not found' })
  }
  if (req.method === 'DELETE' && url.pathname === '/api/v1/messages') {
    messages = []
    return send(200, { status: 'ok' })
  }
  send(404, { message: 'not found' })
})

smtp.listen(smtpPort, host, () => {
  api.listen(apiPort, host, () => {
    console.log(
      `mail sink: SMTP ${host}:${smtpPort}, API http://${host}:${apiPort}/api/v1/messages`,
    )
  })
})
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    smtp.close(() => api.close(() => process.exit(0)))
    setTimeout(() => process.exit(0), 2000).unref()
  })
}
