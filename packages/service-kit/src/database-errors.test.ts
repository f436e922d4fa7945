import { MongoBulkWriteError, MongoNetworkError, MongoServerError } from 'mongodb'
import { isDatabaseUnavailable } from './database-errors'

// The errors the driver throws when the database goes away under a request, as the marketplace
// day under faults met them (docs/reliability.md): each must answer 503 with Retry-After.
describe('isDatabaseUnavailable', () => {
  it('takes a network error for the database being away', () => {
    expect(
      isDatabaseUnavailable(new MongoNetworkError('connection 18 to 127.0.0.1:1 closed')),
    ).toBe(true)
  })

  it('takes a bulk write whose connection closed under it for the database being away', () => {
    // What insertMany or bulkWrite throws when the connection closes mid-write: the network
    // error is kept as the bulk error's errorResponse (its constructor's argument).
    const closed = new MongoBulkWriteError(
      new MongoNetworkError('connection 18 to 127.0.0.1:1 closed') as never,
      {} as never,
    )
    expect(closed.name).toBe('MongoBulkWriteError')
    expect(isDatabaseUnavailable(closed)).toBe(true)
  })

  it('does not take a bulk write refused by the server (a duplicate key) for an outage', () => {
    const duplicate = new MongoBulkWriteError(
      { message: 'E11000 duplicate key error', code: 11000, writeErrors: [] } as never,
      {} as never,
    )
    expect(isDatabaseUnavailable(duplicate)).toBe(false)
    expect(isDatabaseUnavailable(new MongoServerError({ message: 'bad', code: 2 }))).toBe(false)
    expect(isDatabaseUnavailable(new Error('a bug'))).toBe(false)
  })
})
