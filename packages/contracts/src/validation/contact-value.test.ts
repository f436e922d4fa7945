import { CatalogPostViewSchema } from '../api/favorites'
import { JobPostSchema, SentJobRequestSchema } from '../api/jobs'
import { Events } from '../events/registry'
import { CONTACT_OPTIONS } from '../marketplace/options'
import {
  checkContactValue,
  contactValueField,
  contactValueKind,
  formatContactValue,
  normalizeContactValue,
  phoneDigits,
} from './contact-value'
import { Messages } from './messages'
import { validatePostForm } from './post-form'
import { validatePostModifyForm } from './post-modify'

describe('contact values', () => {
  it('gives every contact option a kind of value', () => {
    for (const method of CONTACT_OPTIONS) expect(contactValueKind(method)).not.toBeNull()
    expect(contactValueKind('')).toBeNull()
    expect(contactValueKind('Carrier pigeon')).toBeNull()
  })

  describe('Email', () => {
    it.each(['ava@example.com', ' Ava.Turner@Example.COM '])('accepts %p', (value) => {
      expect(checkContactValue('Email', value)).toBeNull()
    })
    it.each(['ava', 'ava@', '@example.com', 'ava@example'])('refuses %p', (value) => {
      expect(checkContactValue('Email', value)).toBe(Messages.contactValue.email)
    })
    it('stores the address in lower case', () => {
      expect(normalizeContactValue('Email', ' Ava@Example.COM ')).toBe('ava@example.com')
    })
  })

  describe.each(['Phone', 'WhatsApp', 'Telegram'])('%s', (method) => {
    it.each([
      '5551234567',
      '555 123 4567',
      '555-123-4567',
      '555.123.4567',
      '(555) 123-4567',
      '+1 (555) 123-4567',
      '1-555-123-4567',
    ])('accepts %p and stores its 10 digits', (value) => {
      expect(checkContactValue(method, value)).toBeNull()
      expect(normalizeContactValue(method, value)).toBe('5551234567')
    })
    it.each(['555123456', '55512345678', '+44 20 7946 0958', '555-123-456a', 'call me'])(
      'refuses %p with the message naming the method',
      (value) => {
        expect(checkContactValue(method, value)).toBe(`Enter a 10-digit phone number for ${method}`)
      },
    )
  })

  describe.each(['Discord', 'Instagram', 'X(Twitter)'])('%s', (method) => {
    it.each(['ava_turner', '@ava.turner', 'at', 'a'.repeat(32)])('accepts %p', (value) => {
      expect(checkContactValue(method, value)).toBeNull()
    })
    it.each(['a', '@', 'a'.repeat(33), 'ava turner', 'ava-turner', 'https://x.com/ava'])(
      'refuses %p',
      (value) => {
        expect(checkContactValue(method, value)).toBe(Messages.contactValue.handle(method, 2, 32))
      },
    )
    it('stores the handle without its @ and shows it with one', () => {
      expect(normalizeContactValue(method, ' @ava.turner ')).toBe('ava.turner')
      expect(formatContactValue(method, 'ava.turner')).toBe('@ava.turner')
    })
  })

  describe('Others', () => {
    it('takes free text of at most 100 characters', () => {
      expect(checkContactValue('Others', 'Signal: ask for Ava')).toBeNull()
      expect(checkContactValue('Others', 'x'.repeat(100))).toBeNull()
      expect(checkContactValue('Others', 'x'.repeat(101))).toBe(Messages.contactValue.text(100))
    })
  })

  it('takes a method without a value (the documented create body has only the method), and still checks a value given', () => {
    for (const method of CONTACT_OPTIONS) {
      expect(checkContactValue(method, '')).toBeNull()
      expect(checkContactValue(method, '   ')).toBeNull()
      expect(checkContactValue(method, undefined)).toBeNull()
    }
    expect(checkContactValue('WhatsApp', 'nope')).toBe('Enter a 10-digit phone number for WhatsApp')
    expect(checkContactValue('Email', 'nope')).toBe(Messages.contactValue.email)
  })

  it('refuses a value without a method, and leaves an unknown method to the option rule', () => {
    expect(checkContactValue('', 'ava@example.com')).toBe(Messages.contactValue.withoutMethod)
    expect(checkContactValue('', '')).toBeNull()
    expect(checkContactValue('Carrier pigeon', 'coo')).toBeNull()
  })

  it('formats phone numbers for reading', () => {
    expect(formatContactValue('Telegram', '5551234567')).toBe('(555) 123-4567')
    expect(phoneDigits('(555) 123-4567')).toBe('5551234567')
  })

  it('labels the form field after the method', () => {
    expect(contactValueField('WhatsApp')).toMatchObject({
      label: 'WhatsApp number',
      inputMode: 'tel',
    })
    expect(contactValueField('Email').label).toBe('E-mail address')
    expect(contactValueField('Discord').label).toBe('Discord handle')
    expect(contactValueField('Others').label).toBe('How to reach you')
  })

  it('is part of the add and modify forms rules', () => {
    const post = { title: 'Paint a fence', where: 'Boston MA', contact: 'Phone' }
    expect(validatePostForm(post)).toBeNull()
    expect(validatePostForm({ ...post, contactValue: '555-1234' })).toBe(
      'Enter a 10-digit phone number for Phone',
    )
    expect(validatePostForm({ ...post, contactValue: '555-123-4567' })).toBeNull()
    expect(validatePostModifyForm({ where: 'Boston MA', contact: 'Instagram' })).toBeNull()
    expect(
      validatePostModifyForm({ where: 'Boston MA', contact: 'Instagram', contactValue: '@a' }),
    ).toBe(Messages.contactValue.handle('Instagram', 2, 32))
    expect(validatePostForm({ title: 'Paint', where: 'Boston MA' })).toBeNull()
  })

  it('has no field in the post events nor in the catalog view favorites and reports answer', () => {
    // Those are built from the events: without a field there, the value cannot reach them.
    for (const schema of [
      Events.postCreated.schema,
      Events.postUpdated.schema,
      CatalogPostViewSchema,
    ]) {
      expect(Object.keys(schema.properties)).not.toContain('contactValue')
    }
    expect(Object.keys(JobPostSchema.properties)).toContain('contactValue')
    expect(Object.keys(SentJobRequestSchema.properties.post.properties)).toContain('contactValue')
  })
})
