import { Messages } from './messages'
import {
  checkPostUpdatePrerequisites,
  formatPaymentList,
  isTitleUnchanged,
  parsePaymentText,
  validatePostModifyForm,
} from './post-modify'

describe('parsePaymentText', () => {
  it("splits on '-' and trims", () => {
    expect(parsePaymentText('Cash - Venmo -Zelle')).toEqual(['Cash', 'Venmo', 'Zelle'])
  })

  it('drops empty entries', () => {
    expect(parsePaymentText('Cash - - Zelle -')).toEqual(['Cash', 'Zelle'])
    expect(parsePaymentText('')).toEqual([])
    expect(parsePaymentText('  ')).toEqual([])
  })

  it('round-trips with formatPaymentList', () => {
    expect(formatPaymentList(['Cash', 'Bank Transfer'])).toBe('Cash - Bank Transfer')
    expect(parsePaymentText(formatPaymentList(['Cash', 'Bank Transfer']))).toEqual([
      'Cash',
      'Bank Transfer',
    ])
  })
})

describe('checkPostUpdatePrerequisites', () => {
  it('passes with a post id and a token', () => {
    expect(checkPostUpdatePrerequisites({ postId: 'p1', accessToken: 't' })).toBeNull()
  })

  it('refuses a missing post id or token', () => {
    expect(checkPostUpdatePrerequisites({ postId: '', accessToken: 't' })).toBe(
      'Missing required data to update job',
    )
    expect(checkPostUpdatePrerequisites({ postId: 'p1', accessToken: null })).toBe(
      'Missing required data to update job',
    )
    expect(checkPostUpdatePrerequisites({})).toBe('Missing required data to update job')
  })
})

describe('isTitleUnchanged', () => {
  it('allows omitting or repeating the title', () => {
    expect(isTitleUnchanged('Move a sofa', undefined)).toBe(true)
    expect(isTitleUnchanged('Move a sofa', 'Move a sofa')).toBe(true)
  })

  it('refuses a different title', () => {
    expect(isTitleUnchanged('Move a sofa', 'Move a piano')).toBe(false)
  })
})

describe('validatePostModifyForm', () => {
  const valid = {
    where: 'Austin TX',
    when: 'Sunday',
    howmuch: '$60',
    payment: 'Cash - Venmo',
    contact: 'Email',
    contactValue: 'ava@example.com',
    infos: '',
  }

  it('accepts a valid form', () => {
    expect(validatePostModifyForm(valid)).toBeNull()
  })

  it('accepts an empty payment text', () => {
    expect(validatePostModifyForm({ ...valid, payment: '' })).toBeNull()
  })

  it('still requires a where', () => {
    expect(validatePostModifyForm({ ...valid, where: ' ' })).toBe(Messages.post.locationRequired)
  })

  it('bounds the texts like the creation form', () => {
    expect(validatePostModifyForm({ ...valid, infos: 'x'.repeat(2000) })).toBeNull()
    expect(validatePostModifyForm({ ...valid, infos: 'x'.repeat(2001) })).toBe(
      Messages.tooLong('Infos', 2000),
    )
    expect(validatePostModifyForm({ ...valid, when: 'x'.repeat(101) })).toBe(
      Messages.tooLong('When', 100),
    )
  })

  it('refuses payment entries outside the list', () => {
    expect(validatePostModifyForm({ ...valid, payment: 'Cash - Gold' })).toBe(
      Messages.post.invalidPayment,
    )
  })

  it('refuses a contact outside the list', () => {
    expect(validatePostModifyForm({ ...valid, contact: 'Pigeon' })).toBe(
      Messages.post.invalidContact,
    )
  })
})
