// The mail sink must outlive a client that drops in the middle of a message: the outage
// tests kill services while they send, and one crash of the sink used to fail every test
// after it that waits for a mailed code. Run by scripts/test.sh with `node --test`.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const net = require('node:net')
const path = require('node:path')
const { spawn } = require('node:child_process')

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

async function startSink() {
  const smtpPort = await freePort()
  const apiPort = await freePort()
  const child = spawn(process.execPath, [path.join(__dirname, 'mail-sink.js')], {
    env: { ...process.env, SMTP_PORT: String(smtpPort), MAIL_API_PORT: String(apiPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`sink did not start: ${output}`)), 10_000)
    child.stdout.on('data', () => {
      if (output.includes('mail sink:')) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`sink exited with ${code}: ${output}`)))
  })
  return { child, smtpPort, apiPort, output: () => output }
}

/** Speaks SMTP line by line; `afterData` decides what happens once the server says 354. */
function smtpSession(port, recipient, afterData) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const commands = [
      'EHLO test.local',
      'MAIL FROM:<sender@example.test>',
      `RCPT TO:<${recipient}>`,
      'DATA',
    ]
    let buffered = ''
    socket.on('error', () => resolve('reset'))
    socket.on('close', () => resolve('closed'))
    socket.on('data', (chunk) => {
      buffered += chunk.toString()
      // Each reply ends with a line whose code is followed by a space.
      const lines = buffered.split('\r\n')
      buffered = lines.pop()
      for (const line of lines) {
        if (!/^\d{3} /.test(line)) continue
        if (line.startsWith('354')) afterData(socket)
        else if (line.startsWith('2')) {
          // 220 greeting, then 250 for EHLO, MAIL, RCPT and finally the stored message.
          const next = commands.shift()
          socket.write(next ? `${next}\r\n` : 'QUIT\r\n')
          if (!next) socket.end()
        } else reject(new Error(`SMTP said ${line}`))
      }
    })
  })
}

test('a client reset in the middle of DATA does not stop the sink', async (t) => {
  const sink = await startSink()
  t.after(() => sink.child.kill('SIGTERM'))

  await smtpSession(sink.smtpPort, 'dropped@example.test', (socket) => {
    socket.write('Subject: cut off\r\n\r\nhalf a bo')
    setTimeout(() => socket.resetAndDestroy(), 100)
  })
  await new Promise((resolve) => setTimeout(resolve, 300))
  assert.equal(sink.child.exitCode, null, `the sink exited: ${sink.output()}`)

  await smtpSession(sink.smtpPort, 'whole@example.test', (socket) => {
    socket.write('Subject: complete\r\n\r\nthe whole body\r\n.\r\n')
  })
  const response = await fetch(
    `http://127.0.0.1:${sink.apiPort}/api/v1/search?query=to:whole@example.test`,
  )
  const found = await response.json()
  assert.equal(found.messages_count, 1)
  assert.equal(found.messages[0].Subject, 'complete')
  const dropped = await fetch(
    `http://127.0.0.1:${sink.apiPort}/api/v1/search?query=to:dropped@example.test`,
  )
  assert.equal((await dropped.json()).messages_count, 0, 'a message never finished is not kept')
})
