import type { DomainEvent } from '@marketplace/contracts/events'
import { EmailTakenError, type CredentialsRepository } from './credentials-repository'
import { signUp } from './sign-up'

// Unit test: the repository and the hasher are stubbed ports; the system test covers the
// real database and broker.
function fakeCredentials(existing: string[] = [], raceOnInsert = false) {
  const stored: Array<{ doc: Record<string, unknown>; events: DomainEvent[] }> = []
  const repository: Pick<CredentialsRepository, 'newUserId' | 'emailExists' | 'insert'> = {
    newUserId: () => '65f000000000000000000001',
    emailExists: async (email) => existing.includes(email),
    insert: async (doc, events) => {
      if (raceOnInsert) throw new EmailTakenError()
      stored.push({ doc, events })
    },
  }
  return { repository, stored }
}
const hasher = { hash: async (password: string) => `hashed:${password}`, verify: async () => true }
const valid = {
  firstname: 'Grace',
  lastname: 'Hopper',
  email: ' Grace.Hopper@Navy.MIL ',
  phoneNumber: '2125550100',
  password: 'Cobol1959!',
  dateOfBirth: '1980-12-09',
  interest: 'Posts',
  emailPreferences: false,
  termsAgreed: true,
}

describe('signUp', () => {
  it('stores the account with a hashed password and its user.registered event in one write', async () => {
    const { repository, stored } = fakeCredentials()
    const result = await signUp({ credentials: repository, hasher, requestId: 'req-1' }, valid)
    expect(result).toEqual({ userId: '65f000000000000000000001', email: 'grace.hopper@navy.mil' })
    expect(stored).toHaveLength(1)
    expect(stored[0]!.doc).toMatchObject({
      email: 'grace.hopper@navy.mil',
      passwordHash: 'hashed:Cobol1959!',
      roles: ['2000'],
      verified: false,
    })
    expect(stored[0]!.events).toEqual([
      expect.objectContaining({
        type: 'user.registered',
        version: 1,
        aggregateId: '65f000000000000000000001',
        requestId: 'req-1',
        data: expect.objectContaining({
          email: 'grace.hopper@navy.mil',
          phoneNumber: '(212) 555-0100',
          interest: 'Posts',
        }),
      }),
    ])
  })

  it('answers the first failed rule with a 400', async () => {
    const { repository, stored } = fakeCredentials()
    await expect(
      signUp({ credentials: repository, hasher }, { ...valid, termsAgreed: false }),
    ).rejects.toMatchObject({
      statusCode: 400,
      message: 'You must agree to the Terms of Service',
    })
    expect(stored).toHaveLength(0)
  })

  it('answers 409 "Email already registered" before hashing when the address is taken', async () => {
    const { repository } = fakeCredentials(['grace.hopper@navy.mil'])
    const hash = jest.fn(hasher.hash)
    await expect(
      signUp({ credentials: repository, hasher: { ...hasher, hash } }, valid),
    ).rejects.toMatchObject({
      statusCode: 409,
      message: 'Email already registered',
    })
    expect(hash).not.toHaveBeenCalled()
  })

  it('answers 409 when a concurrent sign-up wins the unique index', async () => {
    const { repository } = fakeCredentials([], true)
    await expect(signUp({ credentials: repository, hasher }, valid)).rejects.toMatchObject({
      statusCode: 409,
    })
  })
})
