import { isServed, isWholeCollectionRead, shapesOf } from './query-shapes'

describe('query shapes', () => {
  it('reads the filter and sort of each command as the driver sends it', () => {
    expect(
      shapesOf({
        commandName: 'find',
        command: {
          find: 'posts',
          filter: { userID: 'u1', isOnline: true },
          sort: { createdAt: -1 },
        },
      }),
    ).toEqual([
      {
        command: 'find',
        collection: 'posts',
        filter: ['userID', 'isOnline'],
        sort: ['createdAt'],
        byId: false,
      },
    ])
    expect(
      shapesOf({
        commandName: 'update',
        command: {
          update: 'inboxes',
          updates: [{ q: { _id: 'u1', 'conversations.65a1b2c3d4e5f60718293a4b.unread': 1 } }],
        },
      }),
    ).toEqual([
      {
        command: 'update',
        collection: 'inboxes',
        filter: ['_id', 'conversations.<key>.unread'],
        sort: [],
        byId: true,
      },
    ])
    // countDocuments: an aggregate whose first stage is the $match.
    expect(
      shapesOf({
        commandName: 'aggregate',
        command: {
          aggregate: 'requests',
          pipeline: [{ $match: { $or: [{ ownerId: 'a' }, { requesterId: 'a' }] } }, { $group: {} }],
        },
      })[0],
    ).toMatchObject({ filter: ['ownerId', 'requesterId'], sort: [] })
    expect(
      shapesOf({ commandName: 'insert', command: { insert: 'posts', documents: [] } }),
    ).toEqual([])
  })

  it('counts a range on _id as a filter, an equality or $in as a point lookup', () => {
    const [range] = shapesOf({
      commandName: 'find',
      command: { find: 'x', filter: { _id: { $gt: 'a' } } },
    })
    const [inList] = shapesOf({
      commandName: 'find',
      command: { find: 'x', filter: { _id: { $in: ['a'] } } },
    })
    expect(range!.byId).toBe(false)
    expect(isServed(range!, [])).toBe(true) // the primary key starts with _id
    expect(inList!.byId).toBe(true)
  })

  it('is served by an index that starts with a filtered field and holds every filtered and sorted one', () => {
    const query = {
      command: 'find',
      collection: 'posts',
      filter: ['userID', 'isOnline'],
      sort: ['createdAt'],
      byId: false,
    }
    expect(isServed(query, [['userID', 'isOnline', 'createdAt']])).toBe(true)
    expect(isServed(query, [['isOnline', 'userID', 'createdAt']])).toBe(true)
    // Sorted in memory: the index lacks createdAt.
    expect(isServed(query, [['userID', 'isOnline']])).toBe(false)
    // Not usable: it starts with a field the query does not filter on.
    expect(isServed(query, [['category', 'userID', 'isOnline', 'createdAt']])).toBe(false)
    expect(isServed(query, [])).toBe(false)
  })

  it('serves a sort alone only with an index that starts with it; a bare read is a whole-collection read', () => {
    const sortOnly = {
      command: 'find',
      collection: 'posts',
      filter: [],
      sort: ['createdAt'],
      byId: false,
    }
    expect(isServed(sortOnly, [['createdAt', 'userID']])).toBe(true)
    expect(isServed(sortOnly, [['userID', 'createdAt']])).toBe(false)
    const bare = { command: 'find', collection: 'posts', filter: [], sort: [], byId: false }
    expect(isWholeCollectionRead(bare)).toBe(true)
    expect(isWholeCollectionRead(sortOnly)).toBe(false)
  })
})
