import {
  POST_CONTACT_MAX_LENGTH,
  POST_INFOS_MAX_LENGTH,
  POST_LOCATION_MAX_LENGTH,
  POST_SALARY_MAX_LENGTH,
  POST_TITLE_MAX_LENGTH,
  POST_WHEN_MAX_LENGTH,
} from '../marketplace/limits'
import { Messages } from './messages'
import {
  canPreviewPost,
  checkExpirationDate,
  validatePostForm,
  validatePostPayload,
  type PostForm,
} from './post-form'

const today = new Date('2024-06-15T12:00:00Z')

const valid: PostForm = {
  title: 'Move a sofa',
  where: 'Austin TX',
  when: 'Saturday morning',
  howmuch: '$50',
  payment: ['Cash', 'Venmo'],
  contact: 'Phone',
  contactValue: '5551234567',
  infos: 'Third floor, no elevator.',
  expirationDate: '2024-06-20',
}

describe('canPreviewPost', () => {
  it('needs both a title and a where', () => {
    expect(canPreviewPost({ title: 'A', where: 'B' })).toBe(true)
    expect(canPreviewPost({ title: '', where: 'B' })).toBe(false)
    expect(canPreviewPost({ title: 'A', where: '' })).toBe(false)
  })

  it('does not count blanks as a title or a where', () => {
    expect(canPreviewPost({ title: '   ', where: 'B' })).toBe(false)
    expect(canPreviewPost({ title: 'A', where: '\t' })).toBe(false)
  })
})

describe('checkExpirationDate', () => {
  it('accepts today', () => {
    expect(checkExpirationDate('2024-06-15', today)).toBeNull()
  })

  it('accepts a later date', () => {
    expect(checkExpirationDate('2025-01-01', today)).toBeNull()
  })

  it('refuses yesterday', () => {
    expect(checkExpirationDate('2024-06-14', today)).toBe(Messages.post.expirationDateInPast)
  })

  it('accepts a cleared date', () => {
    expect(checkExpirationDate('', today)).toBeNull()
    expect(checkExpirationDate(null, today)).toBeNull()
    expect(checkExpirationDate(undefined, today)).toBeNull()
  })

  it('refuses a date that does not exist or is misshapen', () => {
    expect(checkExpirationDate('2024-02-30', today)).toBe(Messages.post.invalidExpirationDate)
    expect(checkExpirationDate('next week', today)).toBe(Messages.post.invalidExpirationDate)
  })

  it('compares against the UTC calendar day of today', () => {
    expect(checkExpirationDate('2024-06-15', new Date('2024-06-15T23:59:59Z'))).toBeNull()
    expect(checkExpirationDate('2024-06-15', new Date('2024-06-16T00:00:00Z'))).toBe(
      Messages.post.expirationDateInPast,
    )
  })
})

describe('validatePostForm', () => {
  it('accepts a complete form', () => {
    expect(validatePostForm(valid, today)).toBeNull()
  })

  it('accepts a form with only a title and a where', () => {
    expect(validatePostForm({ title: 'Move a sofa', where: 'Remote' }, today)).toBeNull()
  })

  it('accepts a custom location that is not in the list', () => {
    expect(validatePostForm({ ...valid, where: 'Springfield' }, today)).toBeNull()
  })

  it('requires a title and a where', () => {
    expect(validatePostForm({ ...valid, title: '' }, today)).toBe(
      'Title and Location are required for preview',
    )
    expect(validatePostForm({ ...valid, where: ' ' }, today)).toBe(
      'Title and Location are required for preview',
    )
  })

  it.each([
    ['title', 'Title', POST_TITLE_MAX_LENGTH],
    ['where', 'Location', POST_LOCATION_MAX_LENGTH],
    ['when', 'When', POST_WHEN_MAX_LENGTH],
    ['howmuch', 'How much', POST_SALARY_MAX_LENGTH],
    ['infos', 'Infos', POST_INFOS_MAX_LENGTH],
  ] as const)('bounds %s at its maximum length', (field, label, max) => {
    expect(validatePostForm({ ...valid, [field]: 'x'.repeat(max) }, today)).toBeNull()
    expect(validatePostForm({ ...valid, [field]: 'x'.repeat(max + 1) }, today)).toBe(
      Messages.tooLong(label, max),
    )
  })

  it('bounds the contact at 200 characters before checking it against the list', () => {
    expect(
      validatePostForm({ ...valid, contact: 'x'.repeat(POST_CONTACT_MAX_LENGTH + 1) }, today),
    ).toBe(Messages.tooLong('Contact', POST_CONTACT_MAX_LENGTH))
  })

  it('has the maxima of its spec: title 100, location 100, when 100, how much 100, contact 200, infos 2000', () => {
    expect([
      POST_TITLE_MAX_LENGTH,
      POST_LOCATION_MAX_LENGTH,
      POST_WHEN_MAX_LENGTH,
      POST_SALARY_MAX_LENGTH,
      POST_CONTACT_MAX_LENGTH,
      POST_INFOS_MAX_LENGTH,
    ]).toEqual([100, 100, 100, 100, 200, 2000])
  })

  it('refuses an expiration date before today and accepts a cleared one', () => {
    expect(validatePostForm({ ...valid, expirationDate: '2024-06-14' }, today)).toBe(
      Messages.post.expirationDateInPast,
    )
    expect(validatePostForm({ ...valid, expirationDate: '' }, today)).toBeNull()
  })

  it('refuses a payment value outside the list', () => {
    expect(validatePostForm({ ...valid, payment: ['Cash', 'Gold bars'] }, today)).toBe(
      Messages.post.invalidPayment,
    )
    expect(validatePostForm({ ...valid, payment: ['cash'] }, today)).toBe(
      Messages.post.invalidPayment,
    )
  })

  it('accepts no payment at all', () => {
    expect(validatePostForm({ ...valid, payment: [] }, today)).toBeNull()
  })

  it('refuses a contact value outside the list and accepts none', () => {
    expect(validatePostForm({ ...valid, contact: 'Pigeon' }, today)).toBe(
      Messages.post.invalidContact,
    )
    expect(validatePostForm({ ...valid, contact: 'X(Twitter)' }, today)).toBeNull()
    expect(validatePostForm({ ...valid, contact: '', contactValue: '' }, today)).toBeNull()
  })

  it('reports the first failed rule only', () => {
    expect(
      validatePostForm({ title: '', where: '', payment: ['Gold'], contact: 'Pigeon' }, today),
    ).toBe(Messages.post.titleAndLocationRequired)
  })
})

describe('validatePostPayload', () => {
  it('applies the form rules to the API field names', () => {
    const payload = {
      title: 'Move a sofa',
      location: 'Austin TX',
      jobStartEnd: 'Saturday',
      salary: '$50',
      paymentType: ['Cash'],
      contact: 'Email',
      contactValue: 'ava@example.com',
      infos: '',
    }
    expect(validatePostPayload(payload, today)).toBeNull()
    expect(validatePostPayload({ ...payload, location: '' }, today)).toBe(
      Messages.post.titleAndLocationRequired,
    )
    expect(validatePostPayload({ ...payload, salary: 'x'.repeat(101) }, today)).toBe(
      Messages.tooLong('How much', 100),
    )
    expect(validatePostPayload({ ...payload, paymentType: ['Gold'] }, today)).toBe(
      Messages.post.invalidPayment,
    )
  })
})
