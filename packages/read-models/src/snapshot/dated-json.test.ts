import { fromDatedJson, toDatedJson } from './dated-json'

describe('dated JSON', () => {
  it('keeps dates at any depth through JSON text, and drops undefined fields', () => {
    const document = {
      _id: 'u1',
      createdAt: new Date('2026-01-02T03:04:05.006Z'),
      deletion: { requestedAt: new Date(5), purgeAfter: new Date(6) },
      worker: { skills: ['Plumbing'], contacts: [{ value: 'a@b.c', visibility: 'public' }] },
      takenDownAt: null,
      gone: undefined,
    }
    const back = fromDatedJson(JSON.parse(JSON.stringify(toDatedJson(document))))
    expect(back).toEqual(document)
    expect(Object.keys(back as object)).not.toContain('gone')
    expect((back as typeof document).deletion.purgeAfter).toBeInstanceOf(Date)
  })
})
