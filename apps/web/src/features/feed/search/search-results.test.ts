import {
  filterSearchResults,
  isPostResult,
  resultLabel,
  toSelection,
  type RawSearchResult,
} from '@/features/feed/search/search-results'

const post = (
  id: string,
  title: string,
  extra: Partial<RawSearchResult> = {},
): RawSearchResult => ({
  _id: id,
  title,
  ...extra,
})
const person = (id: string, fields: Partial<RawSearchResult>): RawSearchResult => ({
  _id: id,
  ...fields,
})

describe('isPostResult', () => {
  it('counts a result with a title and no first or last name as a post', () => {
    expect(isPostResult(post('1', 'Paint my fence'))).toBe(true)
  })

  it('counts a titled worker with a name as a person, and an untitled result as a person', () => {
    expect(isPostResult(person('2', { title: 'Painter', firstName: 'Noah' }))).toBe(false)
    expect(isPostResult(person('3', { title: 'Painter', lastName: 'Lee' }))).toBe(false)
    expect(isPostResult(person('4', { name: 'Noah' }))).toBe(false)
    expect(isPostResult(post('5', '   '))).toBe(false)
  })
})

describe('resultLabel', () => {
  it('uses the title, else first and last name, else name, else "Untitled"', () => {
    expect(resultLabel(person('1', { title: 'Painter', firstName: 'Noah' }))).toBe('Painter')
    expect(resultLabel(person('2', { firstName: 'Noah', lastName: 'Lee', name: 'N' }))).toBe(
      'Noah Lee',
    )
    expect(resultLabel(person('3', { lastName: 'Lee' }))).toBe('Lee')
    expect(resultLabel(person('4', { name: 'Nolee' }))).toBe('Nolee')
    expect(resultLabel(person('5', {}))).toBe('Untitled')
  })
})

describe('filterSearchResults', () => {
  const results = [
    post('p1', 'Dog walking', { infos: 'Walk my dog daily' }),
    post('p2', 'Dog walking help'),
    post('p3', 'Garden', { description: 'Also some dog walking' }),
    person('w1', { firstName: 'Dog', lastName: 'Walking', title: 'Walker' }),
    person('w2', { firstName: 'Sam', lastName: 'Dogwalking', title: 'Pet sitter' }),
  ]

  it('keeps only exact case-insensitive matches when there are some', () => {
    expect(filterSearchResults(results, '  dog WALKING ').map((r) => r._id)).toEqual(['p1', 'w1'])
  })

  it('matches a person exactly by title or name', () => {
    expect(filterSearchResults(results, 'pet sitter').map((r) => r._id)).toEqual(['w2'])
    const named = [person('w3', { name: 'Handy Andy' }), person('w4', { name: 'Andy' })]
    expect(filterSearchResults(named, 'andy').map((r) => r._id)).toEqual(['w4'])
  })

  it('falls back to partial matches on title, description, infos and names', () => {
    expect(filterSearchResults(results, 'dog').map((r) => r._id)).toEqual([
      'p1',
      'p2',
      'p3',
      'w1',
      'w2',
    ])
    expect(filterSearchResults(results, 'daily').map((r) => r._id)).toEqual(['p1'])
    expect(filterSearchResults(results, 'sam').map((r) => r._id)).toEqual(['w2'])
  })

  it('does not match a post on a person-only field', () => {
    const withName = [post('p9', 'Moving', { name: 'Zed' })]
    expect(filterSearchResults(withName, 'zed')).toEqual([])
  })

  it('returns nothing for an empty query', () => {
    expect(filterSearchResults(results, '   ')).toEqual([])
  })
})

describe('toSelection', () => {
  it('fills missing fields of a post with empty text and lists', () => {
    const selection = toSelection(post('p1', 'Fix sink', { category: 'Handyman' }))
    expect(selection.type).toBe('job')
    if (selection.type !== 'job') return
    expect(selection.item).toMatchObject({
      _id: 'p1',
      title: 'Fix sink',
      infos: '',
      paymentType: [],
      authorizedUsers: [],
      category: 'Handyman',
    })
  })

  it('fills missing fields of a person', () => {
    const selection = toSelection(person('w1', { firstName: 'Noah' }))
    expect(selection.type).toBe('worker')
    if (selection.type !== 'worker') return
    expect(selection.item).toMatchObject({
      firstName: 'Noah',
      lastName: '',
      skills: [],
      contacts: [],
    })
  })
})
