import type { FastifyInstance } from 'fastify'
import { waitForCode } from './mailbox'
import { VERIFY_SUBJECT, signupPayload, uniqueEmail, uniqueIp } from './auth-test-app'

export const PASSWORD = 'Analytic1843!'

/** Signs up through the API, reads the code from the mailbox and verifies the address. */
export async function verifiedAccount(app: FastifyInstance, prefix = 'user') {
  const email = uniqueEmail(prefix)
  const ip = uniqueIp()
  const headers = { 'x-forwarded-for': ip }
  const signup = await app.inject({
    method: 'POST',
    url: '/api/auth/signup',
    payload: signupPayload(email, { password: PASSWORD }),
    headers,
  })
  if (signup.statusCode !== 201)
    throw new Error(`signup answered ${signup.statusCode}: ${signup.body}`)
  const code = await waitForCode(email, VERIFY_SUBJECT)
  const confirm = await app.inject({
    method: 'POST',
    url: '/api/auth/confirm-signup',
    payload: { email, code },
    headers,
  })
  if (confirm.statusCode !== 200) throw new Error(`confirm answered ${confirm.statusCode}`)
  return { email, password: PASSWORD }
}
