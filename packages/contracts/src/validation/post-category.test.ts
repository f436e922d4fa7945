import { CATEGORIES, POST_CATEGORIES } from '../marketplace/categories'
import { Messages } from './messages'
import { checkPostCategory } from './post-category'

describe('checkPostCategory', () => {
  it.each(POST_CATEGORIES.map((category) => [category]))('accepts %s', (category) => {
    expect(checkPostCategory(category)).toBeNull()
  })

  it.each([[undefined], [null], [''], ['   ']])('reads %j as no choice', (category) => {
    expect(checkPostCategory(category)).toBeNull()
  })

  it.each([['Astrology'], ['moving'], [' Moving'], ['All'], [42], [['Moving']]])(
    'refuses %j with the message naming the list',
    (category) => {
      expect(checkPostCategory(category)).toBe(Messages.post.invalidCategory)
    },
  )

  it('names every category of the feed, Uncategorized last', () => {
    expect(POST_CATEGORIES).toEqual(CATEGORIES)
    expect(Messages.post.invalidCategory).toBe(
      'Please choose a category from the list: Moving, Cleaning, Handyman, Tech, Tutoring, Pet care, Delivery, Events, Gardening, Uncategorized',
    )
  })
})
