import { Value } from '@sinclair/typebox/value'
import { Messages } from './messages'
import {
  buildWorkerProfilePayload,
  contactVisibilityHelp,
  contactVisibilityOf,
  formatCommaList,
  parseCommaList,
  validateWorkerProfileForm,
  validateWorkerProfilePayload,
  WorkerProfilePayloadSchema,
  type WorkerProfileForm,
  type WorkerProfilePayload,
} from './worker-profile'

/** A copy of `value` without `keys` (rest destructuring would leave unused bindings). */
function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy = { ...value }
  for (const key of keys) delete copy[key]
  return copy
}

const validForm: WorkerProfileForm = {
  title: ' Handyman ',
  skills: 'Plumbing, painting, , carpentry ,',
  availability: 'Weekends',
  paymentType: 'Cash',
  location: 'Austin TX',
  infos: '',
  contacts: 'me@example.com, @handy',
  contactVisibility: 'hidden',
}

const validPayload: WorkerProfilePayload = {
  title: 'Handyman',
  skills: ['Plumbing'],
  availability: 'Weekends',
  paymentType: 'Cash',
  location: 'Austin TX',
}

describe('parseCommaList', () => {
  it('splits on commas, trims and drops empty entries', () => {
    expect(parseCommaList(' a, b ,,c , ')).toEqual(['a', 'b', 'c'])
  })

  it('gives an empty list for nothing', () => {
    expect(parseCommaList('')).toEqual([])
    expect(parseCommaList(' , ')).toEqual([])
    expect(parseCommaList(undefined)).toEqual([])
  })

  it('round-trips with formatCommaList', () => {
    expect(formatCommaList(['a', 'b'])).toBe('a, b')
    expect(parseCommaList(formatCommaList(['a', 'b']))).toEqual(['a', 'b'])
  })
})

describe('contact visibility', () => {
  it('has one helper text per setting', () => {
    expect(contactVisibilityHelp('public')).toBe(
      'Your contact information will be visible to everyone',
    )
    expect(contactVisibilityHelp('hidden')).toBe(
      'Your contact information will only be visible to users on who you made a post request',
    )
  })

  it('reads the setting back from the first stored contact', () => {
    expect(contactVisibilityOf([{ visibility: 'public' }, { visibility: 'hidden' }])).toBe('public')
    expect(contactVisibilityOf([{ visibility: 'hidden' }])).toBe('hidden')
  })

  it('defaults to hidden without contacts or with an unknown value', () => {
    expect(contactVisibilityOf([])).toBe('hidden')
    expect(contactVisibilityOf(undefined)).toBe('hidden')
    expect(contactVisibilityOf([{ visibility: 'friends' }])).toBe('hidden')
  })
})

describe('buildWorkerProfilePayload', () => {
  it('trims texts, parses lists and applies the one visibility to every contact', () => {
    expect(buildWorkerProfilePayload(validForm)).toEqual({
      title: 'Handyman',
      skills: ['Plumbing', 'painting', 'carpentry'],
      availability: 'Weekends',
      paymentType: 'Cash',
      location: 'Austin TX',
      infos: '',
      contacts: [
        { value: 'me@example.com', visibility: 'hidden' },
        { value: '@handy', visibility: 'hidden' },
      ],
    })
  })
})

describe('validateWorkerProfileForm', () => {
  it('accepts a complete form', () => {
    expect(validateWorkerProfileForm(validForm)).toBeNull()
  })

  it('accepts a form without infos and contacts', () => {
    expect(validateWorkerProfileForm(without(validForm, 'infos', 'contacts'))).toBeNull()
  })

  it.each([
    ['title', Messages.workerProfile.titleRequired],
    ['skills', Messages.workerProfile.skillsRequired],
    ['availability', Messages.workerProfile.availabilityRequired],
    ['paymentType', Messages.workerProfile.paymentTypeRequired],
    ['location', Messages.workerProfile.locationRequired],
  ] as const)('requires %s', (field, message) => {
    expect(validateWorkerProfileForm({ ...validForm, [field]: '  ' })).toBe(message)
  })

  it('counts skills made only of commas as no skills', () => {
    expect(validateWorkerProfileForm({ ...validForm, skills: ' , ,' })).toBe(
      Messages.workerProfile.skillsRequired,
    )
  })

  it('checks the required fields in form order', () => {
    expect(validateWorkerProfileForm({ ...validForm, title: '', skills: '', location: '' })).toBe(
      Messages.workerProfile.titleRequired,
    )
    expect(validateWorkerProfileForm({ ...validForm, skills: '', location: '' })).toBe(
      Messages.workerProfile.skillsRequired,
    )
  })
})

describe('validateWorkerProfilePayload', () => {
  it('accepts a minimal payload', () => {
    expect(validateWorkerProfilePayload(validPayload)).toBeNull()
  })

  it.each([
    ['title', 'Title', 100],
    ['availability', 'Availability', 100],
    ['paymentType', 'Payment type', 100],
    ['location', 'Location', 100],
    ['infos', 'Additional information', 2000],
  ] as const)('bounds %s at %i characters', (field, label, max) => {
    expect(validateWorkerProfilePayload({ ...validPayload, [field]: 'x'.repeat(max) })).toBeNull()
    expect(validateWorkerProfilePayload({ ...validPayload, [field]: 'x'.repeat(max + 1) })).toBe(
      Messages.tooLong(label, max),
    )
  })

  it('accepts 20 skills and refuses 21', () => {
    const skills = Array.from({ length: 20 }, (_, i) => `skill ${i}`)
    expect(validateWorkerProfilePayload({ ...validPayload, skills })).toBeNull()
    expect(validateWorkerProfilePayload({ ...validPayload, skills: [...skills, 'one more'] })).toBe(
      Messages.workerProfile.tooManySkills(20),
    )
  })

  it('accepts a 50-character skill and refuses 51', () => {
    expect(validateWorkerProfilePayload({ ...validPayload, skills: ['x'.repeat(50)] })).toBeNull()
    expect(validateWorkerProfilePayload({ ...validPayload, skills: ['x'.repeat(51)] })).toBe(
      Messages.tooLong('Each skill', 50),
    )
  })

  it('accepts 10 contacts of 200 characters and refuses an 11th or a 201st character', () => {
    const contact = { value: 'x'.repeat(200), visibility: 'public' as const }
    const ten = Array.from({ length: 10 }, () => contact)
    expect(validateWorkerProfilePayload({ ...validPayload, contacts: ten })).toBeNull()
    expect(validateWorkerProfilePayload({ ...validPayload, contacts: [...ten, contact] })).toBe(
      Messages.workerProfile.tooManyContacts(10),
    )
    expect(
      validateWorkerProfilePayload({
        ...validPayload,
        contacts: [{ value: 'x'.repeat(201), visibility: 'public' }],
      }),
    ).toBe(Messages.tooLong('Each contact', 200))
  })

  it('refuses an unknown contact visibility', () => {
    const contacts = [
      { value: 'a', visibility: 'friends' },
    ] as unknown as WorkerProfilePayload['contacts']
    expect(validateWorkerProfilePayload({ ...validPayload, contacts })).toBe(
      Messages.workerProfile.invalidContactVisibility,
    )
  })
})

describe('WorkerProfilePayloadSchema', () => {
  it('accepts the payload the form builds', () => {
    expect(Value.Check(WorkerProfilePayloadSchema, buildWorkerProfilePayload(validForm))).toBe(true)
  })

  it('accepts the optional isOnline and profilePicture', () => {
    expect(
      Value.Check(WorkerProfilePayloadSchema, {
        ...validPayload,
        isOnline: true,
        profilePicture: 'userImages/a.png',
      }),
    ).toBe(true)
  })

  it('refuses skills given as text and an unknown visibility', () => {
    expect(Value.Check(WorkerProfilePayloadSchema, { ...validPayload, skills: 'a, b' })).toBe(false)
    expect(
      Value.Check(WorkerProfilePayloadSchema, {
        ...validPayload,
        contacts: [{ value: 'a', visibility: 'friends' }],
      }),
    ).toBe(false)
  })
})
