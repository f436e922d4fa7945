import { deriveCategory, guessPostCategory } from './categories'
import { wordsOf } from './search-words'

const categoryOf = (title: string, infos = '') => deriveCategory(wordsOf(title), wordsOf(infos))

describe('deriveCategory', () => {
  it.each([
    ['Help moving a couch to my new apartment', 'Moving'],
    ['Deep cleaning before move-out inspection', 'Moving'], // title order: "move" is Moving's
    ['Weekly house cleaning', 'Cleaning'],
    ['Fix a leaking kitchen faucet', 'Handyman'],
    ['Assemble IKEA wardrobe', 'Handyman'],
    ['Set up my new laptop and printer', 'Tech'],
    ['Math tutoring for 8th grader', 'Tutoring'],
    ['Dog sitter for the weekend', 'Pet care'],
    ['Pick up groceries for my grandmother', 'Delivery'],
    ['Bartender for a birthday party', 'Events'],
    ['Mow the lawn and trim hedges', 'Gardening'],
    ['Stand in line for concert tickets', 'Uncategorized'],
  ])('%s → %s', (title, category) => {
    expect(categoryOf(title)).toBe(category)
  })

  it('uses infos when the title says nothing', () => {
    expect(categoryOf('Saturday help needed', 'Our yard needs weeding and raking')).toBe(
      'Gardening',
    )
  })

  it('prefers the title over infos', () => {
    expect(categoryOf('Walk my dog', 'and maybe clean the kitchen')).toBe('Pet care')
  })
})

describe('guessPostCategory', () => {
  it('is the server guess, from the title then the infos, on raw texts', () => {
    expect(guessPostCategory('Help MOVING a couch', '')).toBe('Moving')
    expect(guessPostCategory('Saturday help', 'The lawn needs mowing')).toBe('Gardening')
    expect(guessPostCategory('Walk my dog', 'and maybe clean the kitchen')).toBe('Pet care')
    expect(guessPostCategory('', undefined)).toBe('Uncategorized')
  })
})
